// The firmware memory checker (`ai8xsim run --check-memory`, on by default):
// the bundled faulty examples must be reported with the storing function and
// the variable, heap block or region they overran; correct golden vectors must
// produce no report. Each test case is its own process (ctest).
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <vector>
#include <string>

#include <sys/wait.h>

#include <nlohmann/json.hpp>

#include "app/run_options.h"
#include "testbench/unit/app/app_test_support.h"
#include "build_paths.h"

using namespace ai8x;
using namespace ai8x::test;
namespace fs = std::filesystem;

namespace {

std::string golden(const std::string& name) { return std::string(AI8XSIM_SHARED_DIR) + "/vectors/" + name; }

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

// The one report of `kind` in the run JSON; fails the test unless there is exactly one.
nlohmann::json only_fault(const nlohmann::json& run, const std::string& kind) {
    REQUIRE(run["firmware_faults"].is_array());
    nlohmann::json found;
    int n = 0;
    for (const auto& f : run["firmware_faults"])
        if (f["kind"] == kind) {
            found = f;
            ++n;
        }
    INFO(run["firmware_faults"].dump(2));
    REQUIRE(n == 1);
    return found;
}

}  // namespace

TEST_CASE("memory checker: an array overrun names the function and the variable", "[run][memcheck]") {
    // firmware/examples/buffer_overrun: ml_data32 holds (40 + 3) / 4 words and
    // unload_outputs() writes 4096 bytes into it, one byte per store.
    constexpr unsigned kBufferBytes = (40 + 3) / 4 * 4;
    constexpr unsigned kWritten = 4096;
    fs::path work = scratch("memcheck-overrun");
    RunOptions o = run_options_for(example_firmware("buffer_overrun"), work);
    CHECK(run_command(o) == kRunSimError);
    const auto j = read_json(o.json_out);
    CHECK(j["result"] == "error");
    // check_output() returned CNN_OK before the overrun; the PASS line never printed.
    CHECK(j["kat"] == "pass");
    CHECK(j["console"].get<std::string>().find("*** PASS ***") == std::string::npos);

    REQUIRE(j["firmware_faults"].size() == 1);  // the C library's own stores are not reported
    const auto f = only_fault(j, "object_overrun");
    CHECK(starts_with(f["function"].get<std::string>(), "unload_outputs"));
    CHECK(f["object"] == "ml_data32");
    CHECK(f["object_size"] == kBufferBytes);
    CHECK(f["extent_past_end"] == kWritten - kBufferBytes);
    CHECK(f["count"] == kWritten - kBufferBytes);
    CHECK(f["first_us"].get<double>() > 0);
    CHECK(f["message"].get<std::string>().find("ml_data32") != std::string::npos);

    // The later crash points back at the corruption.
    const std::string error = j["error"].get<std::string>();
    CHECK(error.find("bus fault") != std::string::npos);
    CHECK(error.find("the firmware corrupted memory earlier") != std::string::npos);
    CHECK(error.find("unload_outputs") != std::string::npos);
    fs::remove_all(work);
}

TEST_CASE("memory checker: the same overrun on the MAX78002's Arm core is named the same way",
          "[run][memcheck][max78002]") {
    // The example is device-neutral: built for the MAX78002 (its memory map,
    // its interrupt numbers), the checker must still name the store and the object.
    fs::path work = scratch("memcheck-overrun-87");
    RunOptions o = run_options_for(example_firmware("buffer_overrun"), work);
    o.config_path = std::string(AI8XSIM_SOURCE_DIR) + "/configs/max78002.yaml";
    CHECK(run_command(o) == kRunSimError);
    const auto j = read_json(o.json_out);
    CHECK(j["result"] == "error");
    const auto f = only_fault(j, "object_overrun");
    CHECK(starts_with(f["function"].get<std::string>(), "unload_outputs"));
    CHECK(f["object"] == "ml_data32");
    CHECK(f["object_size"] == (40 + 3) / 4 * 4);
    CHECK(j["error"].get<std::string>().find("the firmware corrupted memory earlier") != std::string::npos);
    fs::remove_all(work);
}

TEST_CASE("memory checker: --no-check-memory leaves the report and the error without it", "[run][memcheck]") {
    fs::path work = scratch("memcheck-off");
    RunOptions o = run_options_for(example_firmware("buffer_overrun"), work);
    o.check_memory = false;
    CHECK(run_command(o) == kRunSimError);
    const auto j = read_json(o.json_out);
    CHECK(j["firmware_faults"].is_null());
    CHECK(j["error"].get<std::string>().find("corrupted memory") == std::string::npos);
    CHECK(j["kat"] == "pass");  // the known-answer verdict does not depend on the checker
    fs::remove_all(work);
}

TEST_CASE("memory checker: deep recursion is reported as a stack overflow in the recursing function",
          "[run][memcheck]") {
    fs::path work = scratch("memcheck-stack");
    RunOptions o = run_options_for(example_firmware("stack_overflow"), work);
    CHECK(run_command(o) == kRunPass);  // no MPU: the firmware itself notices nothing
    const auto j = read_json(o.json_out);
    REQUIRE(j["firmware_faults"].is_array());
    REQUIRE_FALSE(j["firmware_faults"].empty());
    uint64_t deepest = 0;
    for (const auto& f : j["firmware_faults"]) {
        CHECK(f["kind"] == "stack_overflow");
        CHECK(starts_with(f["function"].get<std::string>(), "sum_depth"));
        CHECK(f["object"] == "stack");
        deepest = std::max<uint64_t>(deepest, f["extent_past_end"].get<uint64_t>());
    }
    // 400 frames of at least 64 bytes of locals: over 25 KiB, of which 8 KiB fit.
    CHECK(deepest > 400 * 64 - 8192);
    fs::remove_all(work);
}

TEST_CASE("memory checker: a store before a malloc'd block hits the allocator's header", "[run][memcheck]") {
    fs::path work = scratch("memcheck-wild");
    RunOptions o = run_options_for(example_firmware("wild_pointer"), work);
    run_command(o);
    const auto j = read_json(o.json_out);
    REQUIRE(j["firmware_faults"].size() == 1);
    const auto f = only_fault(j, "heap_metadata");
    CHECK(starts_with(f["function"].get<std::string>(), "store_reading"));
    CHECK(f["object_size"] == 8 * 4);  // SLOTS * sizeof(int32_t)
    CHECK(f["object"].get<std::string>().find("heap block") != std::string::npos);
    CHECK(f["count"] == 1);
    fs::remove_all(work);
}

TEST_CASE("memory checker: a store into flash names the function and the constant", "[run][memcheck]") {
    fs::path work = scratch("memcheck-flash");
    RunOptions o = run_options_for(example_firmware("flash_write"), work);
    CHECK(run_command(o) == kRunSimError);
    const auto j = read_json(o.json_out);
    const auto f = only_fault(j, "flash_write");
    CHECK(f["function"] == "update_calibration");
    CHECK(f["object"] == "calibration");
    CHECK(f["object_size"] == 4 * 4);
    CHECK(j["error"].get<std::string>().find("read-only memory") != std::string::npos);
    fs::remove_all(work);
}

namespace {

// One simulation per process (SystemC elaborates once), hence one vector per test case.
void expect_no_report(const std::string& name) {
    fs::path work = scratch("memcheck-" + name);
    RunOptions o = run_options_for(golden(name), work);
    CHECK(run_command(o) == kRunPass);
    const auto j = read_json(o.json_out);
    CHECK(j["kat"] == "pass");
    REQUIRE(j["firmware_faults"].is_array());
    INFO(j["firmware_faults"].dump(2));
    CHECK(j["firmware_faults"].empty());
    fs::remove_all(work);
}

}  // namespace

TEST_CASE("memory checker: a correct golden vector produces no report", "[run][memcheck]") {
    expect_no_report("demo-mnist-extrasmall");
}

TEST_CASE("memory checker: a correct FIFO golden vector produces no report", "[run][memcheck]") {
    expect_no_report("demo-cats-dogs");
}

TEST_CASE("memory checker: a correct MAX78002 golden vector produces no report", "[run][memcheck][max78002]") {
    expect_no_report("../vectors-max78002/demo87-mnist");
}

TEST_CASE("run: a PASS printed before a fault is reported as kat pass with exit 3", "[run][kat]") {
    fs::path work = scratch("kat-then-fault");
    fs::path dir = work / "fw";
    fs::create_directories(dir);
    std::ofstream(dir / "main.c") << "#include <stdint.h>\n#include <stdio.h>\n"
                                     "int main(void) {\n"
                                     "  printf(\"\\n*** PASS ***\\n\\n\");\n"
                                     "  return (int) *(volatile uint32_t *) 0x4E000000;  /* nothing decodes it */\n"
                                     "}\n";
    RunOptions o = run_options_for(dir.string(), work);
    CHECK(run_command(o) == kRunSimError);
    const auto j = read_json(o.json_out);
    CHECK(j["result"] == "error");
    CHECK(j["kat"] == "pass");
    CHECK(j["error"].get<std::string>().find("bus fault") != std::string::npos);
    CHECK(j["firmware_faults"].empty());  // a read fault corrupts nothing
    fs::remove_all(work);
}

TEST_CASE("run: kat is null when the firmware has no known-answer test", "[run][kat]") {
    fs::path work = scratch("kat-none");
    RunOptions o = run_options_for(example_firmware("hang"), work);
    o.timeout_ms = 1;
    CHECK(run_command(o) == kRunSimError);
    const auto j = read_json(o.json_out);
    CHECK(j["kat"].is_null());
    fs::remove_all(work);
}

TEST_CASE("memory checker: the generator's unload overruns ml_data32 when channels are not a multiple of 4",
          "[run][memcheck]") {
    // t-test-conv1d-4: layer 0 has 65 channels of 33 bytes (cnn.c "shape: (65, 33, 1)",
    // CNN_NUM_OUTPUTS 2145). cnn_unload() moves 4 channels per 32-bit word, so its
    // last loop also stores channels 65-67, which do not exist, into ml_data32[(2145 + 3) / 4].
    constexpr unsigned kBufferBytes = (2145 + 3) / 4 * 4;
    constexpr unsigned kStoredBytes = (65 + 3) / 4 * 4 * 33;
    fs::path work = scratch("memcheck-conv1d-4");
    RunOptions o = run_options_for(golden("t-test-conv1d-4"), work);
    CHECK(run_command(o) == kRunPass);  // the overrun hits only cnn_time, after the check
    const auto j = read_json(o.json_out);
    REQUIRE(j["firmware_faults"].is_array());
    REQUIRE_FALSE(j["firmware_faults"].empty());
    uint64_t furthest = 0;
    for (const auto& f : j["firmware_faults"]) {
        CHECK(f["kind"] == "object_overrun");
        CHECK(starts_with(f["function"].get<std::string>(), "cnn_unload"));
        CHECK(f["object"] == "ml_data32");
        CHECK(f["object_size"] == kBufferBytes);
        furthest = std::max<uint64_t>(furthest, f["extent_past_end"].get<uint64_t>());
    }
    CHECK(furthest == kStoredBytes - kBufferBytes);
    fs::remove_all(work);
}

namespace {

struct CliRun {
    int exit_code = -1;
    std::string err;
};

// `ai8xsim run ARGS` as a user types it; stderr kept, stdout dropped.
CliRun ai8xsim_run(const std::string& args, const fs::path& work) {
    const fs::path err = work / "stderr.txt";
    const std::string cmd = "SC_COPYRIGHT_MESSAGE=DISABLE '" + std::string(AI8XSIM_BINARY) + "' run " + args +
                            " --build-dir '" + ai8x::test::firmware_cache() + "\' >/dev/null 2>'" + err.string() + "'";
    const int status = std::system(cmd.c_str());
    CliRun r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::ifstream in(err);
    r.err.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return r;
}

}  // namespace

TEST_CASE("cli: the checker is on by default and --no-check-memory turns it off", "[cli][memcheck]") {
    fs::path work = scratch("memcheck-cli");
    const std::string dir = "'" + example_firmware("buffer_overrun") + "'";
    const CliRun on = ai8xsim_run(dir, work);
    INFO(on.err);
    CHECK(on.exit_code == kRunSimError);
    CHECK(on.err.find("memory checker: the firmware corrupted memory, 1 finding(s) from 1 store site(s)") !=
          std::string::npos);
    CHECK(on.err.find("[object_overrun] unload_outputs wrote up to") != std::string::npos);
    CHECK(on.err.find("the known-answer test passed before the run went wrong") != std::string::npos);

    const CliRun off = ai8xsim_run(dir + " --no-check-memory", work);
    INFO(off.err);
    CHECK(off.exit_code == kRunSimError);
    CHECK(off.err.find("memory checker") == std::string::npos);
    CHECK(off.err.find("the known-answer test passed before the run went wrong") != std::string::npos);

    const CliRun explicit_on = ai8xsim_run(dir + " --no-check-memory --check-memory", work);
    CHECK(explicit_on.err.find("[object_overrun] unload_outputs") != std::string::npos);
    fs::remove_all(work);
}

namespace {

// The lines of `text` that contain `part`.
std::vector<std::string> lines_with(const std::string& text, const std::string& part) {
    std::vector<std::string> found;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (line.find(part) != std::string::npos) found.push_back(line);
    return found;
}

}  // namespace

TEST_CASE("memory checker: the sites of one overrun are one finding, printed once, and each site under -v debug",
          "[cli][memcheck]") {
    // t-test-conv1d-pool-4: three store instructions of cnn_unload's last loop
    // each run past ml_data32 (issue #30: one line per routine and object).
    fs::path work = scratch("memcheck-grouped");
    const std::string dir = "'" + golden("t-test-conv1d-pool-4") + "'";
    const fs::path json = work / "run.json";
    const CliRun run = ai8xsim_run(dir + " --json '" + json.string() + "'", work);
    INFO(run.err);
    CHECK(run.exit_code == kRunPass);
    const auto j = read_json(json.string());
    REQUIRE(j["firmware_faults"].size() == 3);  // the JSON keeps every site
    const auto said = lines_with(run.err, "memory checker");
    REQUIRE(said.size() == 1);  // the header, and nothing at the time of the stores
    CHECK(said[0].find("1 finding(s) from 3 store site(s)") != std::string::npos);
    const auto findings = lines_with(run.err, "[object_overrun]");
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].find("cnn_unload wrote up to 48 byte(s) past the end of ml_data32 (1040 bytes): 3 sites, "
                           "48 stores; first cnn_unload+0x") != std::string::npos);

    const CliRun debug = ai8xsim_run(dir + " -v debug", work);
    INFO(debug.err);
    CHECK(lines_with(debug.err, "first store of this site").size() == 3);
    CHECK(lines_with(debug.err, "memory checker:   site [object_overrun] cnn_unload+0x").size() == 3);
    CHECK(lines_with(debug.err, "[object_overrun] cnn_unload wrote").size() == 1);
    fs::remove_all(work);
}
