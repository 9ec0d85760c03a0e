// `ai8xsim run --gdb`: a real GDB (Debian's gdb-multiarch, batch mode) debugs
// a golden vector's firmware on the virtual board; plus the port-in-use and
// GDB-goes-away cases. Every wait is bounded and every process started here is
// ended here.
#include <catch2/catch.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "testbench/unit/test_support.h"
#include "build_paths.h"

namespace fs = std::filesystem;
using ai8x::test::slurp;

namespace {

// Upper bounds on wall-clock waits (a firmware build can take a while on a
// cold cache); they stop a broken run, they are not measurements.
constexpr int kStartupSeconds = 300;
constexpr int kGdbSeconds = 120;
constexpr int kRunSeconds = 600;

struct GdbScratch {
    fs::path dir;
    explicit GdbScratch(const std::string& tag)
        : dir(fs::temp_directory_path() / ("ai8xsim-gdb-" + tag + "-" + std::to_string(getpid()))) {
        fs::create_directories(dir);
    }
    ~GdbScratch() { fs::remove_all(dir); }
};

// `ai8xsim run ARGS...` in the background (under `timeout`, so it cannot
// outlive a crashed test), stdout/stderr to files. Killed when still running
// at destruction.
class BackgroundRun {
public:
    BackgroundRun(const std::vector<std::string>& args, const fs::path& out, const fs::path& err) : err_(err) {
        std::vector<std::string> argv = {"timeout", std::to_string(kRunSeconds), AI8XSIM_BINARY, "run"};
        argv.insert(argv.end(), args.begin(), args.end());
        pid_ = fork();
        REQUIRE(pid_ >= 0);
        if (pid_ == 0) {
            if (!freopen(out.c_str(), "w", stdout) || !freopen(err.c_str(), "w", stderr)) _exit(127);
            std::vector<char*> c;
            for (auto& a : argv) c.push_back(a.data());
            c.push_back(nullptr);
            setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);
            execvp(c[0], c.data());
            _exit(127);
        }
    }
    ~BackgroundRun() {
        if (pid_ > 0 && !status_) {
            kill(pid_, SIGTERM);  // `timeout` passes it on to ai8xsim
            waitpid(pid_, nullptr, 0);
        }
    }
    // Waits for stderr to contain a line matching `re`; nothing if the run
    // ended or the time ran out first.
    std::optional<std::smatch> wait_for_stderr(const std::regex& re, int seconds) {
        const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
        while (std::chrono::steady_clock::now() < end) {
            text_ = slurp(err_);
            std::smatch m;
            if (std::regex_search(text_, m, re)) return m;
            if (finished()) return std::nullopt;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        return std::nullopt;
    }
    // Exit code once the run ends (-1 if killed or not ended within `seconds`).
    int wait_exit(int seconds) {
        const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
        while (!finished() && std::chrono::steady_clock::now() < end)
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        if (!status_) return -1;
        return WIFEXITED(*status_) ? WEXITSTATUS(*status_) : -1;
    }

private:
    bool finished() {
        if (status_) return true;
        int st = 0;
        if (waitpid(pid_, &st, WNOHANG) == pid_) status_ = st;
        return status_.has_value();
    }
    fs::path err_;
    pid_t pid_ = -1;
    std::optional<int> status_;
    std::string text_;
};

std::string run_capture(const std::string& cmd) {
    FILE* p = popen(cmd.c_str(), "r");
    REQUIRE(p);
    std::string text;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) text.append(buf, n);
    pclose(p);
    return text;
}

const std::regex kListening(R"(gdb: listening on 127\.0\.0\.1:(\d+), symbols in (\S+))");

// The value the generated cnn.c last stores into `reg` with a plain
// assignment before cnn_start() is defined: in generated firmware the
// functions run in file order, so that is the register's value when
// cnn_start() is entered.
std::optional<uint32_t> value_before_cnn_start(const fs::path& cnn_c, uint32_t reg) {
    std::ifstream in(cnn_c);
    REQUIRE(in);
    static const std::regex write(R"(\*\(\(volatile uint32_t \*\) (0x[0-9a-fA-F]+)\) = (0x[0-9a-fA-F]+);)");
    std::optional<uint32_t> last;
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("int cnn_start(void)", 0) == 0) return last;
        std::smatch m;
        if (std::regex_search(line, m, write) && std::stoul(m[1], nullptr, 16) == reg)
            last = static_cast<uint32_t>(std::stoul(m[2], nullptr, 16));
    }
    return std::nullopt;
}

bool gdb_available() { return std::system("command -v gdb-multiarch >/dev/null 2>&1") == 0; }

// A GDB session on `vector`'s firmware: a breakpoint at cnn_start, the pc,
// quadrant 0's REG_CTL (at `quadrant0_ctl`, as cnn.c last wrote it), a step,
// a watchpoint on cnn_time that fires in the CNN interrupt handler, the exit;
// then the same run without GDB counts the same instructions and time.
void check_gdb_session(const fs::path& vector, uint32_t quadrant0_ctl) {
    INFO("gdb-multiarch is needed (scripts/setup.sh installs it)");
    REQUIRE(gdb_available());
    const auto expected_ctl = value_before_cnn_start(vector / "cnn.c", quadrant0_ctl);
    REQUIRE(expected_ctl);
    char ctl_text[16];
    std::snprintf(ctl_text, sizeof ctl_text, "0x%08x", quadrant0_ctl);

    GdbScratch s("session");
    const std::string cache = ai8x::test::firmware_cache();
    BackgroundRun run({vector.string(), "--gdb", "0", "--build-dir", cache, "--json", (s.dir / "gdb.json").string()},
                      s.dir / "out", s.dir / "err");
    const auto listening = run.wait_for_stderr(kListening, kStartupSeconds);
    INFO("ai8xsim stderr:\n" << slurp(s.dir / "err"));
    REQUIRE(listening);
    const std::string port = (*listening)[1];
    const std::string elf = (*listening)[2];
    REQUIRE(fs::exists(elf));

    // Where cnn_start is, from the ELF's own symbol table (Thumb bit cleared).
    const std::string nm = run_capture("arm-none-eabi-nm '" + elf + "'");
    std::smatch sym;
    REQUIRE(std::regex_search(nm, sym, std::regex(R"(([0-9a-f]{8}) T cnn_start\n)")));
    const uint32_t cnn_start = static_cast<uint32_t>(std::stoul(sym[1], nullptr, 16)) & ~1u;

    const std::string gdb = run_capture(
        "timeout " + std::to_string(kGdbSeconds) + " gdb-multiarch -batch -nx -ex 'set confirm off' -ex 'file " + elf +
        "' -ex 'target remote 127.0.0.1:" + port +
        "' -ex 'break cnn_start' -ex continue -ex 'info registers pc' -ex 'x/1wx " + ctl_text +
        "' -ex stepi -ex next "
        "-ex 'watch cnn_time' -ex continue -ex delete -ex continue 2>&1");
    INFO("gdb output:\n" << gdb);

    const int rc = run.wait_exit(kRunSeconds);
    const std::string out = slurp(s.dir / "out");
    INFO("ai8xsim stdout:\n" << out);

    CHECK(gdb.find("Breakpoint 1, cnn_start ()") != std::string::npos);
    std::smatch pc;
    REQUIRE(std::regex_search(gdb, pc, std::regex(R"(\npc\s+0x([0-9a-f]+)\s)")));
    CHECK(std::stoul(pc[1], nullptr, 16) == cnn_start);
    std::smatch ctl;
    REQUIRE(std::regex_search(gdb, ctl, std::regex(std::string(ctl_text) + R"(:\s+0x([0-9a-f]{8}))")));
    CHECK(std::stoul(ctl[1], nullptr, 16) == *expected_ctl);

    // The watchpoint fires when the CNN interrupt handler stores the
    // inference time, which main() then prints: both must agree.
    std::smatch watch;
    REQUIRE(std::regex_search(
        gdb, watch, std::regex(R"(Hardware watchpoint 2: cnn_time\s+Old value = (\d+)\s+New value = (\d+))")));
    std::smatch printed;
    REQUIRE(std::regex_search(out, printed, std::regex(R"(Approximate inference time: (\d+) us)")));
    CHECK(watch[1] == "0");
    CHECK(watch[2] == printed[1].str());

    CHECK(gdb.find("exited normally") != std::string::npos);
    CHECK(out.find("*** PASS ***") != std::string::npos);
    CHECK(rc == 0);

    // Simulated time stood still while GDB held the CPU, and stopping inside
    // instruction blocks changed no count: the same run without GDB agrees.
    {
        BackgroundRun plain(
            {vector.string(), "--quiet", "--build-dir", cache, "--json", (s.dir / "plain.json").string()},
            s.dir / "plain.out", s.dir / "plain.err");
        REQUIRE(plain.wait_exit(kRunSeconds) == 0);
    }
    const auto debugged = nlohmann::json::parse(slurp(s.dir / "gdb.json"));
    const auto undisturbed = nlohmann::json::parse(slurp(s.dir / "plain.json"));
    CHECK(debugged.at("cpu_instructions") == undisturbed.at("cpu_instructions"));
    CHECK(debugged.at("sim_time_us") == undisturbed.at("sim_time_us"));
    CHECK(debugged.at("phases") == undisturbed.at("phases"));
}

}  // namespace

TEST_CASE("run --gdb: gdb-multiarch breaks, reads registers and accelerator memory, watches, sees the exit", "[gdb]") {
    check_gdb_session(fs::path(AI8XSIM_SHARED_DIR) / "vectors" / "demo-mnist-extrasmall", 0x50100000);
}

TEST_CASE("run --gdb: the same session on a MAX78002 network (its Arm core, its accelerator addresses)",
          "[gdb][max78002]") {
    check_gdb_session(fs::path(AI8XSIM_SHARED_DIR) / "vectors-max78002" / "demo87-mnist", 0x51000000);
}

TEST_CASE("run --gdb: a port already in use is a usage error naming the port", "[gdb]") {
    const int busy = socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(busy >= 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(bind(busy, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    REQUIRE(listen(busy, 1) == 0);
    socklen_t len = sizeof addr;
    getsockname(busy, reinterpret_cast<sockaddr*>(&addr), &len);
    const std::string port = std::to_string(ntohs(addr.sin_port));

    GdbScratch s("busy");
    BackgroundRun run({"--gdb", port, "--build-dir", ai8x::test::firmware_cache()}, s.dir / "out", s.dir / "err");
    const int rc = run.wait_exit(kStartupSeconds);
    close(busy);
    const std::string err = slurp(s.dir / "err");
    INFO(err);
    CHECK(rc == 2);
    CHECK(err.find("127.0.0.1:" + port) != std::string::npos);
    CHECK(err.find("in use") != std::string::npos);
}

TEST_CASE("run --gdb: when GDB goes away the run continues to its verdict", "[gdb]") {
    GdbScratch s("gone");
    BackgroundRun run({"--gdb", "0", "--build-dir", ai8x::test::firmware_cache()}, s.dir / "out", s.dir / "err");
    const auto listening = run.wait_for_stderr(kListening, kStartupSeconds);
    INFO(slurp(s.dir / "err"));
    REQUIRE(listening);

    // A client that connects and hangs up without a word.
    const int c = socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(c >= 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(std::stoi((*listening)[1])));
    REQUIRE(connect(c, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    close(c);

    const int rc = run.wait_exit(kRunSeconds);
    const std::string err = slurp(s.dir / "err");
    INFO(err);
    CHECK(err.find("GDB disconnected; the run continues") != std::string::npos);
    CHECK(slurp(s.dir / "out").find("*** PASS ***") != std::string::npos);
    CHECK(rc == 0);
}

namespace {

// A minimal protocol client for the cases gdb's batch mode cannot drive
// (Ctrl-C while running): sends framed packets, returns reply payloads.
class RawClient {
public:
    explicit RawClient(int port) {
        fd_ = socket(AF_INET, SOCK_STREAM, 0);
        REQUIRE(fd_ >= 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        addr.sin_port = htons(static_cast<uint16_t>(port));
        REQUIRE(connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
        timeval tv{kGdbSeconds, 0};  // a stub that never answers fails the test instead of hanging it
        setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    }
    ~RawClient() { close(fd_); }
    void send_raw(const std::string& bytes) {
        REQUIRE(::send(fd_, bytes.data(), bytes.size(), 0) == ssize_t(bytes.size()));
    }
    void send_packet(const std::string& payload) {
        unsigned sum = 0;
        for (char ch : payload) sum += static_cast<unsigned char>(ch);
        char tail[4];
        std::snprintf(tail, sizeof tail, "#%02x", sum & 0xff);
        send_raw("$" + payload + tail);
    }
    // The next packet's payload (acks skipped); "<closed>" when the stub hung up.
    std::string reply() {
        std::string buf;
        for (;;) {
            const auto start = buf.find('$');
            const auto hash = buf.find('#', start == std::string::npos ? 0 : start);
            if (start != std::string::npos && hash != std::string::npos && buf.size() >= hash + 3)
                return buf.substr(start + 1, hash - start - 1);
            char c[256];
            const ssize_t n = recv(fd_, c, sizeof c, 0);
            if (n <= 0) return "<closed>";
            buf.append(c, size_t(n));
        }
    }
    std::string ask(const std::string& payload) {
        send_packet(payload);
        return reply();
    }

private:
    int fd_ = -1;
};

uint32_t le32(const std::string& hex8) {
    REQUIRE(hex8.size() == 8);
    uint32_t v = 0;
    for (int i = 3; i >= 0; --i)
        v = v << 8 | static_cast<uint32_t>(std::stoul(hex8.substr(size_t(2 * i), 2), nullptr, 16));
    return v;
}

}  // namespace

TEST_CASE("run --gdb: Ctrl-C stops a spinning CPU, a step moves the pc, kill ends the run with exit 3", "[gdb]") {
    const fs::path hang = fs::path(AI8XSIM_SOURCE_DIR) / "firmware" / "examples" / "hang";
    GdbScratch s("raw");
    // The firmware spins forever: only the debugger's kill ends this run.
    BackgroundRun run(
        {hang.string(), "--timeout", "1000000", "--gdb", "0", "--build-dir", ai8x::test::firmware_cache()},
        s.dir / "out", s.dir / "err");
    const auto listening = run.wait_for_stderr(kListening, kStartupSeconds);
    INFO(slurp(s.dir / "err"));
    REQUIRE(listening);
    RawClient gdb(std::stoi((*listening)[1]));

    CHECK(gdb.ask("?") == "T05thread:1;");  // held at reset
    gdb.send_packet("c");
    std::this_thread::sleep_for(std::chrono::milliseconds(200));  // let it spin a while
    gdb.send_raw("\x03");
    CHECK(gdb.reply() == "T02thread:1;");
    const uint32_t pc = le32(gdb.ask("p0f"));
    CHECK(gdb.ask("s") == "T05thread:1;");
    const uint32_t after = le32(gdb.ask("p0f"));
    // One Thumb instruction further (2 or 4 bytes), or a branch back in the spin loop.
    CHECK(after != pc);
    CHECK(gdb.ask("qC") == "QC1");
    CHECK(gdb.ask("qSomethingUnknown").empty());
    gdb.send_packet("k");
    CHECK(gdb.reply() == "<closed>");

    CHECK(run.wait_exit(kRunSeconds) == 3);
    CHECK(slurp(s.dir / "err").find("killed from GDB") != std::string::npos);
}
