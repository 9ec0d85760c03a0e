// A trace recorded while generated firmware runs replays on a CPU-less board
// with every read check holding; changing one expected value makes it fail.
#include <catch2/catch.hpp>

#include <algorithm>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace fs = std::filesystem;

#include "testbench/unit/test_support.h"
#include "build_paths.h"

namespace {

int run_roundtrip(const std::string& args, const fs::path& err_file) {
    const std::string cmd =
        std::string("'") + AI8XSIM_BINARY + "' " + args + " >/dev/null 2>'" + err_file.string() + "'";
    const int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::vector<std::string> read_lines(const fs::path& p) {
    std::vector<std::string> lines;
    std::ifstream in(p);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    return lines;
}

using ai8x::test::slurp;

}  // namespace

TEST_CASE("cli: a trace recorded from a golden vector replays, and a changed check fails", "[cli][replay][vectors]") {
    const fs::path vector = fs::path(AI8XSIM_SHARED_DIR) / "vectors" / "demo-mnist-extrasmall";
    REQUIRE(fs::is_directory(vector));
    const fs::path dir = fs::temp_directory_path() / ("ai8xsim-roundtrip-" + std::to_string(getpid()));
    fs::create_directories(dir);
    const fs::path trace = dir / "recorded.trace";
    const fs::path err = dir / "err.txt";

    REQUIRE(run_roundtrip("run '" + vector.string() + "' --quiet --trace-out '" + trace.string() + "'", err) == 0);
    const std::vector<std::string> lines = read_lines(trace);
    std::size_t writes = 0, reads = 0, irqs = 0;
    for (const auto& l : lines) {
        writes += l.rfind("write", 0) == 0;
        reads += l.rfind("read", 0) == 0;
        irqs += l.rfind("wait_irq", 0) == 0;
    }
    // The firmware loads weights and input, waits for the interrupt, reads the output.
    CHECK(writes > 100);
    CHECK(reads > 0);
    CHECK(irqs > 0);
    // Stretches of accesses are headed by the module that owns the window.
    const auto names = [&](const std::string& name) { return std::count(lines.begin(), lines.end(), "# " + name); };
    CHECK(names("cnn.q0.regs") > 0);
    CHECK(names("cnn.q0.kernel") > 0);
    CHECK(names("cnn.q0.data_sram") > 0);

    const int replay_rc = run_roundtrip("replay '" + trace.string() + "'", err);
    INFO(slurp(err));
    CHECK(replay_rc == 0);

    // Flip one bit of the last value the firmware read back (the network output).
    std::vector<std::string> changed = lines;
    std::size_t target = changed.size();
    for (std::size_t i = 0; i < changed.size(); ++i) {
        if (changed[i].rfind("read32 ", 0) == 0) target = i;
    }
    REQUIRE(target < changed.size());
    std::istringstream words(changed[target]);
    std::string op, address, value;
    words >> op >> address >> value;
    const unsigned long flipped = std::stoul(value, nullptr, 16) ^ 1u;
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08lx", flipped);
    changed[target] = op + " " + address + " " + buf;
    const fs::path bad = dir / "changed.trace";
    {
        std::ofstream out(bad);
        for (const auto& l : changed) out << l << "\n";
    }
    CHECK(run_roundtrip("replay '" + bad.string() + "'", err) == 1);
    const std::string message = slurp(err);
    CHECK(message.find(bad.string() + ":" + std::to_string(target + 1) + ": read32 at " + address + ": expected " +
                       buf) != std::string::npos);
    fs::remove_all(dir);
}
