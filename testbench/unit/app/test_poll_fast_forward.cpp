// The CPU counts the passes of firmware FIFO polling loops instead of
// executing them while the status they read cannot change
// (firmware/host/poll_fast_forward.h, thumb_spin_loop.h), pushes without
// synchronising while nothing waits for them, and, while no FIFO is full,
// pushes and reads FIFO_STAT without synchronising at all, each word stamped
// with the CPU's instant (InputFifoBlock::settled_access). All must leave
// every simulated number as executing each pass with every FIFO access at its
// own instant does: whole runs with the shortcuts on and off
// (--no-poll-fast-forward, --no-fifo-run-ahead, and both at once) must give the same JSON, on
// the device's own cost parameters and on changed ones. The vectors include
// words pushed exactly on a CNN clock edge and within its picosecond rounding
// (t-test-fifostream-notvga64x48-hwc-sc, the MAX78002 ones).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <sys/wait.h>

#include <nlohmann/json.hpp>

#include "testbench/unit/app/app_test_support.h"
#include "tlm/device_config.h"
#include "build_paths.h"

using namespace ai8x;
using namespace ai8x::test;
namespace fs = std::filesystem;

namespace {

nlohmann::json run_polled(const std::string& vector, const fs::path& out, const std::string& extra) {
    const std::string cmd = std::string("SC_COPYRIGHT_MESSAGE=DISABLE '") + AI8XSIM_BINARY + "' run '" +
                            AI8XSIM_SHARED_DIR + "/" + vector + "' --quiet --build-dir '" +
                            ai8x::test::firmware_cache() + "\' --json '" + out.string() + "' " + extra + " 2>/dev/null";
    const int status = std::system(cmd.c_str());
    const int rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    INFO(cmd << " -> exit " << rc);
    REQUIRE((rc == 0 || rc == 1));
    nlohmann::json j = read_json(out.string());
    j.erase("wall_seconds");  // host time: differs between any two runs
    j.erase("inference_wall_seconds");
    return j;
}

// The bundled description of the vector's device with other CPU costs: two
// clocks per instruction and three wait states on accelerator registers and on
// the input FIFO block (FIFO_STAT polls, FIFO words), as a device file over the
// bundled one (tlm/device_overlay.h).
std::string slower_cpu_config(const std::string& vector, const fs::path& dir) {
    const bool max78002 = vector.rfind("vectors-max78002/", 0) == 0;
    const fs::path bundled = max78002 ? fs::path(default_device_config_path()).parent_path() / "max78002.yaml"
                                      : fs::path(default_device_config_path());
    const fs::path path = dir / (max78002 ? "max78002-slower-cpu.yaml" : "max78000-slower-cpu.yaml");
    std::ofstream(path) << "base: " << bundled.string()
                        << "\ncpu:\n  timing:\n    cycles_per_instruction: 2\nbus:\n  accel_reg_wait_states: 3\n"
                        << "  accel_fifo_wait_states: 3\n";
    const DeviceConfig changed = load_device_config(path.string());
    REQUIRE(changed.cpu_timing.cycles_per_instruction == 2);
    REQUIRE(changed.bus.accel_fifo_wait_states == 3);
    return path.string();
}

}  // namespace

TEST_CASE("FIFO polls fast-forwarded and FIFO accesses run ahead: same cycles, stalls, instructions and results",
          "[run][fifo][poll]") {
    const std::string vector = GENERATE(
        as<std::string>{}, "vectors/demo-cats-dogs", "vectors/t-test-fifo-hwc", "vectors/t-test-fifostream-32-hwc",
        "vectors/t-test-fifostream-pool-stride-hwc", "vectors/t-test-fifostream-notvga64x48-hwc-sc",
        "vectors-max78002/t-test-fifostream-32-hwc", "vectors-max78002/t-test-fifostream-640-small");
    const bool changed_costs = GENERATE(false, true);
    const fs::path work = scratch("poll-ff");
    const std::string config = changed_costs ? " --config '" + slower_cpu_config(vector, work) + "'" : std::string();
    const nlohmann::json fast = run_polled(vector, work / "fast.json", config);
    const nlohmann::json exec = run_polled(vector, work / "exec.json", config + " --no-poll-fast-forward");
    const nlohmann::json synced = run_polled(vector, work / "synced.json", config + " --no-fifo-run-ahead");
    // Both shortcuts off at once: every pass executed, every access synchronised.
    const nlohmann::json neither =
        run_polled(vector, work / "neither.json", config + " --no-poll-fast-forward --no-fifo-run-ahead");
    INFO(vector << (changed_costs ? " with changed CPU costs" : ""));
    for (const nlohmann::json* slow : {&exec, &synced, &neither}) {
        INFO((slow == &exec     ? "--no-poll-fast-forward"
              : slow == &synced ? "--no-fifo-run-ahead"
                                : "--no-poll-fast-forward --no-fifo-run-ahead"));
        CHECK(fast.at("cnn_cycles") == slow->at("cnn_cycles"));
        CHECK(fast.at("stall_cycles") == slow->at("stall_cycles"));
        CHECK(fast.at("cpu_instructions") == slow->at("cpu_instructions"));
        CHECK(fast.at("layers") == slow->at("layers"));
        CHECK(fast.at("console") == slow->at("console"));
        CHECK(fast == *slow);  // everything else too: hazards, dropped words, activity, memory
    }
    fs::remove_all(work);
}
