// `ai8xsim run` on the generator's --riscv folders: the Arm boots, hands the
// RISC-V core its boot address and releases it; the RISC-V core loads, starts
// and checks the accelerator and signals the Arm through the semaphore block.
// Every such vector of ../shared/vectors-max78000-options must pass, each in
// its own process (one SystemC design per process). A recorded trace names the
// core and replays on a CPU-less board.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "build_paths.h"
#include "testbench/unit/test_support.h"

namespace fs = std::filesystem;

namespace {

const fs::path kOptions = fs::path(AI8XSIM_SHARED_DIR) / "vectors-max78000-options";

struct Row {
    std::string name, options;
};

// INDEX.md rows whose generator options (the last column) contain --riscv.
std::vector<Row> riscv_rows() {
    std::ifstream in(kOptions / "INDEX.md");
    REQUIRE(in);
    std::vector<Row> out;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("| ", 0) != 0) continue;
        Row r{line.substr(2, line.find(' ', 2) - 2), line.substr(line.rfind('|', line.size() - 2))};
        if (r.options.find("--riscv") != std::string::npos) out.push_back(r);
    }
    return out;
}

int run_riscv_folder(const std::string& args, const fs::path& out) {
    const std::string cmd =
        "SC_COPYRIGHT_MESSAGE=DISABLE '" + std::string(AI8XSIM_BINARY) + "' " + args + " >'" + out.string() + "' 2>&1";
    const int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string cache_arg() { return " --build-dir '" + ai8x::test::firmware_cache() + "'"; }

}  // namespace

TEST_CASE("run: every --riscv vector passes on the two cores", "[run][riscv][vectors]") {
    const auto rows = riscv_rows();
    REQUIRE(rows.size() >= 8);
    const fs::path work = fs::temp_directory_path() / ("ai8xsim-riscv-" + std::to_string(getpid()));
    fs::create_directories(work);
    for (const Row& r : rows) {
        INFO(r.name);
        const fs::path json = work / (r.name + ".json"), out = work / (r.name + ".out");
        const int rc = run_riscv_folder(
            "run '" + (kOptions / r.name).string() + "' --json '" + json.string() + "'" + cache_arg(), out);
        const std::string console = ai8x::test::slurp(out);
        INFO(console);
        CHECK(rc == 0);
        CHECK(console.find("*** PASS ***") != std::string::npos);  // printed by the RISC-V core
        CHECK(console.find("instructions: cpu ") != std::string::npos);
        std::ifstream in(json);
        REQUIRE(in);
        const auto j = nlohmann::json::parse(in);
        CHECK(j["result"] == "pass");
        CHECK(j["phases_core"] == "riscv");
        CHECK(j["riscv_instructions"].get<uint64_t>() > j["cpu_instructions"].get<uint64_t>());
        CHECK(j["cnn_cycles"].get<uint64_t>() >= j["estimate_total"].get<uint64_t>());
        CHECK(j["dropped_words"] == 0);
        CHECK_FALSE(j["phases"]["inference"].is_null());
        if (r.options.find("--fast-fifo") != std::string::npos) {
            // A 50 MHz core feeding word by word cannot keep up with the CNN clock.
            CHECK(j["stall_cycles"].get<uint64_t>() > 0);
            CHECK_FALSE(j["phases"]["input"].is_null());
        }
    }
    fs::remove_all(work);
}

TEST_CASE("run: a dual-core trace names the RISC-V core and replays without CPUs", "[run][riscv][replay]") {
    const fs::path work = fs::temp_directory_path() / ("ai8xsim-riscv-trace-" + std::to_string(getpid()));
    fs::create_directories(work);
    const fs::path trace = work / "rv.trace", out = work / "out";
    REQUIRE(run_riscv_folder("run '" + (kOptions / "r-riscv-fastfifo-simple-4e2551").string() +
                                 "' --quiet --trace-out '" + trace.string() + "'" + cache_arg(),
                             out) == 0);
    const std::string text = ai8x::test::slurp(trace);
    CHECK(text.find("# initiator riscv") != std::string::npos);
    CHECK(text.find("# initiator cpu") == std::string::npos);  // the Arm never touches the accelerator
    CHECK(text.find("# fast_fifo") != std::string::npos);
    CHECK(text.find("0x400c0410") != std::string::npos);  // the fast FIFO's data register
    const int replay_rc = run_riscv_folder("replay '" + trace.string() + "'", out);
    INFO(ai8x::test::slurp(out));
    CHECK(replay_rc == 0);
    fs::remove_all(work);
}

namespace {

// A dual-core folder written for the test: the Arm side does what generated
// main.c does (boot address, semaphore clock, wake-up handler, release, sleep).
fs::path dual_core_folder(const std::string& tag, const std::string& riscv_main) {
    const fs::path dir = fs::temp_directory_path() / ("ai8xsim-rv-" + tag + "-" + std::to_string(getpid()));
    fs::create_directories(dir);
    std::ofstream(dir / "main.c") << R"(#include "mxc.h"
#include "fcr_regs.h"
#include "sema_regs.h"
extern volatile void const *__FlashStart_;
static void WakeISR(void) { MXC_SEMA->irq0 = MXC_F_SEMA_IRQ0_EN & ~MXC_F_SEMA_IRQ0_CM4_IRQ; }
int main(void)
{
    MXC_FCR->urvbootaddr = (uint32_t) &__FlashStart_;
    MXC_SYS_ClockEnable(MXC_SYS_PERIPH_CLOCK_SMPHR);
    MXC_NVIC_SetVector(RISCV_IRQn, WakeISR);
    MXC_SYS_ClockEnable(MXC_SYS_PERIPH_CLOCK_CPU1);
    MXC_LP_EnterSleepMode();
    return 0;
}
)";
    std::ofstream(dir / "main_riscv.c") << riscv_main;
    return dir;
}

}  // namespace

TEST_CASE("run: the RISC-V core prints on the shared console and wakes the Arm through SEMA", "[run][riscv]") {
    const fs::path dir = dual_core_folder("hello", R"(#include <stdio.h>
#include "mxc.h"
#include "sema_regs.h"
int main(void)
{
    printf("hello from the RISC-V core, %d %s 0x%08x\n", -42, "ok", 0xbeefu);
    MXC_SEMA->irq0 = MXC_F_SEMA_IRQ0_EN | MXC_F_SEMA_IRQ0_CM4_IRQ;
    return 0;
}
)");
    const fs::path out = dir / "out";
    const int rc = run_riscv_folder("run '" + dir.string() + "' --build-dir '" + (dir / "cache").string() + "'", out);
    const std::string text = ai8x::test::slurp(out);
    INFO(text);
    CHECK(rc == 0);  // the Arm's main returned after the RISC-V core's wake-up interrupt
    CHECK(text.find("hello from the RISC-V core, -42 ok 0x0000beef") != std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("run: an interrupt without a handler on the RISC-V core is a simulation error naming it", "[run][riscv]") {
    const fs::path dir = dual_core_folder("unhandled", R"(#include "mxc.h"
int main(void)
{
    NVIC_EnableIRQ(TMR0_IRQn);
    MXC_INTR->irq0_set_pending = 1u << TMR0_IRQn;
    for (;;) {
    }
}
)");
    const fs::path out = dir / "out";
    const int rc = run_riscv_folder("run '" + dir.string() + "' --build-dir '" + (dir / "cache").string() + "'", out);
    const std::string text = ai8x::test::slurp(out);
    INFO(text);
    CHECK(rc == 3);
    CHECK(text.find("RISC-V core: unhandled interrupt") != std::string::npos);
    CHECK(text.find("interrupt 8") != std::string::npos);  // TMR0_IRQn on the RISC-V core
    fs::remove_all(dir);
}

// The memory checker watches the Arm's stores only (docs/debugging.md): the
// RISC-V core's stores, made by another Unicorn engine, must never show up as
// the Arm's faults, even when they do what the checker reports on the Arm.
TEST_CASE("run: the memory checker leaves a RISC-V core's array overrun alone and stays on for the Arm",
          "[run][riscv][memcheck]") {
    const fs::path dir = dual_core_folder("overrun", R"(#include "mxc.h"
#include "sema_regs.h"
volatile int small[4];
volatile int after[64];
int main(void)
{
    for (int i = 0; i < 32; ++i) small[i] = i;  /* runs into `after` */
    MXC_SEMA->irq0 = MXC_F_SEMA_IRQ0_EN | MXC_F_SEMA_IRQ0_CM4_IRQ;
    return after[0];
}
)");
    const fs::path out = dir / "out", json = dir / "run.json";
    const int rc = run_riscv_folder(
        "run '" + dir.string() + "' --json '" + json.string() + "' --build-dir '" + (dir / "cache").string() + "'",
        out);
    INFO(ai8x::test::slurp(out));
    CHECK(rc == 0);
    std::ifstream in(json);
    REQUIRE(in);
    const auto j = nlohmann::json::parse(in);
    REQUIRE(j["firmware_faults"].is_array());  // the checker ran (null when off)
    CHECK(j["firmware_faults"].empty());
    fs::remove_all(dir);
}

TEST_CASE("run: a RISC-V store into flash is the RISC-V core's bus fault, not an Arm flash_write",
          "[run][riscv][memcheck]") {
    const fs::path dir = dual_core_folder("flash-write", R"(#include "mxc.h"
static const int table[4] = {1, 2, 3, 4};
int main(void)
{
    *(volatile int *) &table[1] = 5;
    return table[2];
}
)");
    const fs::path out = dir / "out", json = dir / "run.json";
    const int rc = run_riscv_folder(
        "run '" + dir.string() + "' --json '" + json.string() + "' --build-dir '" + (dir / "cache").string() + "'",
        out);
    const std::string text = ai8x::test::slurp(out);
    INFO(text);
    CHECK(rc == 3);
    CHECK(text.find("RISC-V core: bus fault: write to read-only memory at ") != std::string::npos);
    CHECK(text.find("(table+0x4)") != std::string::npos);  // named from the RISC-V image
    std::ifstream in(json);
    REQUIRE(in);
    const auto j = nlohmann::json::parse(in);
    REQUIRE(j["firmware_faults"].is_array());
    CHECK(j["firmware_faults"].empty());
    fs::remove_all(dir);
}

// Without a console verdict the run takes the known-answer result from
// check_output()'s return value; in a dual-core folder that function is the
// RISC-V core's (main_riscv.c), so its a0 is read, not the Arm's R0.
TEST_CASE("run: check_output() on the RISC-V core gives the known-answer result", "[run][riscv]") {
    for (const int result : {1, 0}) {  // CNN_OK, CNN_FAIL
        INFO("check_output returns " << result);
        const fs::path dir = dual_core_folder("kat" + std::to_string(result), R"(#include "mxc.h"
int __attribute__((noinline)) check_output(void) { return )" + std::to_string(result) +
                                                                                  R"(; }
int main(void)
{
    volatile int r = check_output();
    (void) r;
    for (;;) {
    }
}
)");
        const fs::path out = dir / "out", json = dir / "run.json";
        const int rc = run_riscv_folder("run '" + dir.string() + "' --timeout 1 --json '" + json.string() +
                                            "' --build-dir '" + (dir / "cache").string() + "'",
                                        out);
        INFO(ai8x::test::slurp(out));
        CHECK(rc == 3);  // no verdict: the RISC-V core spins until the time limit
        std::ifstream in(json);
        REQUIRE(in);
        const auto j = nlohmann::json::parse(in);
        CHECK(j["kat"] == (result == 1 ? "pass" : "fail"));
        fs::remove_all(dir);
    }
}
