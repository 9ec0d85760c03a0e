// `ai8xsim run` end to end: exit codes, verdicts, error messages, JSON report.
// Each test case is its own process (ctest), so each may run one simulation.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "app/run_options.h"
#include "testbench/unit/app/app_test_support.h"
#include "build_paths.h"

using namespace ai8x;
using namespace ai8x::test;
namespace fs = std::filesystem;

namespace {}  // namespace

TEST_CASE("run: a missing folder is a usage error", "[run]") {
    fs::path work = scratch("missing");
    RunOptions o = run_options_for((work / "does-not-exist").string(), work);
    CHECK(run_command(o) == kRunUsageError);
    CHECK_FALSE(fs::exists(o.json_out));
    fs::remove_all(work);
}

TEST_CASE("run: generator output without weights.h is a usage error", "[run]") {
    fs::path work = scratch("incomplete");
    fs::path dir = work / "vec";
    fs::create_directories(dir);
    for (const char* f : {"main.c", "cnn.c", "cnn.h", "sampledata.h", "sampleoutput.h"}) std::ofstream(dir / f) << "\n";
    CHECK(run_command(run_options_for(dir.string(), work)) == kRunUsageError);
    fs::remove_all(work);
}

TEST_CASE("run: a compiler error is a usage error", "[run]") {
    fs::path work = scratch("broken");
    fs::path dir = work / "fw";
    fs::create_directories(dir);
    std::ofstream(dir / "main.c") << "int main(void) { return not_declared; }\n";
    CHECK(run_command(run_options_for(dir.string(), work)) == kRunUsageError);
    fs::remove_all(work);
}

TEST_CASE("run: a printed FAIL verdict stops the spinning firmware with exit 1", "[run]") {
    fs::path work = scratch("fail");
    fs::path dir = work / "fw";
    fs::create_directories(dir);
    std::ofstream(dir / "main.c") << "#include <stdio.h>\n"
                                     "int main(void) { printf(\"\\n*** FAIL ***\\n\\n\"); while (1); }\n";
    RunOptions o = run_options_for(dir.string(), work);
    o.timeout_ms = 1000;
    CHECK(run_command(o) == kRunFail);
    auto j = read_json(o.json_out);
    CHECK(j["result"] == "fail");
    CHECK(j["console"].get<std::string>().find("*** FAIL ***") != std::string::npos);
    CHECK(j["sim_time_us"].get<double>() < 1000.0);  // stopped at the verdict, not at the timeout
    fs::remove_all(work);
}

TEST_CASE("run: a bus fault is a simulation error naming PC and symbol and address", "[run]") {
    fs::path work = scratch("fault");
    RunOptions o = run_options_for(example_firmware("bus_fault"), work);
    CHECK(run_command(o) == kRunSimError);
    auto j = read_json(o.json_out);
    CHECK(j["result"] == "error");
    std::string err = j["error"].get<std::string>();
    CHECK(err.find("bus fault") != std::string::npos);
    CHECK(err.find("0x4e000000") != std::string::npos);
    CHECK(err.find("read_nowhere") != std::string::npos);
    fs::remove_all(work);
}

TEST_CASE("run: no verdict within the timeout is a simulation error with the PC", "[run]") {
    fs::path work = scratch("hang");
    RunOptions o = run_options_for(example_firmware("hang"), work);
    o.timeout_ms = 1.0;
    CHECK(run_command(o) == kRunSimError);
    auto j = read_json(o.json_out);
    CHECK(j["result"] == "error");
    std::string err = j["error"].get<std::string>();
    CHECK(err.find("no verdict") != std::string::npos);
    CHECK(err.find("main") != std::string::npos);
    CHECK(err.find("accelerator CTL") != std::string::npos);
    CHECK(j["sim_time_us"].get<double>() == Approx(1000.0));
    fs::remove_all(work);
}

TEST_CASE("run: a golden vector reaches the firmware's verdict", "[run][vectors]") {
    fs::path work = scratch("mnist");
    RunOptions o = run_options_for(std::string(AI8XSIM_SHARED_DIR) + "/vectors/demo-mnist", work);
    int rc = run_command(o);
    // Pass or fail is the engine's business; the runner must reach a verdict.
    REQUIRE((rc == kRunPass || rc == kRunFail));
    auto j = read_json(o.json_out);
    CHECK(j["result"] == (rc == kRunPass ? "pass" : "fail"));
    CHECK(j["error"].is_null());
    CHECK(j["console"].get<std::string>().find("*** CNN Inference Test demo-mnist ***") != std::string::npos);
    for (const char* key : {"cnn_cycles", "layers", "sim_time_us", "cpu_instructions", "wall_seconds"})
        CHECK(j.contains(key));
    // Generated main() waits 2 s before starting: simulated, not executed.
    CHECK(j["sim_time_us"].get<double>() > 2e6);
    CHECK(j["cpu_instructions"].get<uint64_t>() < 20000000);
    fs::remove_all(work);
}
