// The CPU counts the passes of firmware FIFO polling loops instead of
// executing them while the status they read cannot change
// (firmware/host/thumb_spin_loop.h, UnicornCpu::hook_block), and pushes
// without synchronising while nothing waits for them. Both must leave every
// simulated number as executing each pass does: whole runs with the
// fast-forward on and off (--no-poll-fast-forward) must give the same JSON,
// on the device's own cost parameters and on changed ones.
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

using namespace ai8x;
using namespace ai8x::test;
namespace fs = std::filesystem;

namespace {

nlohmann::json run_polled(const std::string& vector, const fs::path& out, const std::string& extra) {
    const std::string cmd = std::string("SC_COPYRIGHT_MESSAGE=DISABLE '") + AI8XSIM_BINARY + "' run '" +
                            AI8XSIM_SHARED_DIR + "/vectors/" + vector + "' --quiet --build-dir '" +
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

// The bundled MAX78000 description with other CPU costs: two clocks per
// instruction and three wait states on accelerator registers (FIFO_STAT polls).
std::string slower_cpu_config(const fs::path& dir) {
    std::ifstream in(default_device_config_path());
    std::stringstream text;
    text << in.rdbuf();
    std::string yaml = std::regex_replace(text.str(), std::regex(R"(cycles_per_instruction: 1\b)"),
                                          "cycles_per_instruction: 2", std::regex_constants::format_first_only);
    yaml = std::regex_replace(yaml, std::regex(R"(accel_reg_wait_states: 1\b)"), "accel_reg_wait_states: 3");
    REQUIRE(yaml != text.str());
    const fs::path path = dir / "max78000-slower-cpu.yaml";
    std::ofstream(path) << yaml;
    return path.string();
}

}  // namespace

TEST_CASE("FIFO polls fast-forwarded: same cycles, stalls, instructions and results as executed", "[run][fifo][poll]") {
    const std::string vector = GENERATE(as<std::string>{}, "demo-cats-dogs", "t-test-fifo-hwc",
                                        "t-test-fifostream-32-hwc", "t-test-fifostream-pool-stride-hwc");
    const bool changed_costs = GENERATE(false, true);
    const fs::path work = scratch("poll-ff");
    const std::string config = changed_costs ? " --config '" + slower_cpu_config(work) + "'" : std::string();
    const nlohmann::json fast = run_polled(vector, work / "fast.json", config);
    const nlohmann::json exec = run_polled(vector, work / "exec.json", config + " --no-poll-fast-forward");
    INFO(vector << (changed_costs ? " with changed CPU costs" : ""));
    CHECK(fast.at("cnn_cycles") == exec.at("cnn_cycles"));
    CHECK(fast.at("stall_cycles") == exec.at("stall_cycles"));
    CHECK(fast.at("cpu_instructions") == exec.at("cpu_instructions"));
    CHECK(fast.at("layers") == exec.at("layers"));
    CHECK(fast.at("console") == exec.at("console"));
    CHECK(fast == exec);  // everything else too: hazards, dropped words, activity, memory
    fs::remove_all(work);
}
