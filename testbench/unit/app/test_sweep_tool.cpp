// ai8xsim-sweep (tools/sweep.cpp), run as a program: a small grid over a
// layer-0 register of a plain vector gives one CSV row per point with the
// verdict of each run, and bad arguments exit with code 2 naming the culprit.
// Addresses and generated values come from the vector's cnn.c and the device
// config, never from this file.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include <fmt/format.h>

#include "model/registers/quadrant_registers.h"
#include "testbench/unit/test_support.h"
#include "tlm/device_config.h"
#include "testbench/unit/app/app_test_support.h"
#include "testbench/unit/app/tool_test_support.h"
#include "build_paths.h"

using namespace ai8x;
using namespace ai8x::test;
namespace fs = std::filesystem;

namespace {

const std::string kSweepVector = std::string(AI8XSIM_SHARED_DIR) + "/vectors/t-test-conv1d-1";

// Layer 0, quadrant 0 address of a per-layer register kind.
uint32_t layer0_register(const DeviceConfig& cfg, unsigned kind) {
    return static_cast<uint32_t>(cfg.quadrant_regs.base + cfg.layer_register_offset +
                                 uint64_t{kind} * cfg.layer_register_stride);
}

struct ToolRun {
    int exit_code;
    std::string err;
};

// Runs the sweep tool with `args` (already shell-quoted where needed), stderr captured.
ToolRun run_sweep(const std::string& args, const fs::path& work) {
    const fs::path err = work / "stderr.txt";
    const std::string cmd =
        std::string("'") + AI8XSIM_SWEEP_BINARY + "' " + args + " 2>'" + err.string() + "' >/dev/null";
    const int status = std::system(cmd.c_str());
    REQUIRE(status != -1);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, ai8x::test::slurp(err)};
}

fs::path sweep_work_dir(const std::string& tag) {
    const fs::path work = fs::temp_directory_path() / ("ai8xsim-sweep-test-" + tag + "-" + std::to_string(::getpid()));
    fs::create_directories(work);
    return work;
}

}  // namespace

TEST_CASE("sweep: a 2x1 grid gives PASS at the generated value and FAIL at a moved output pointer", "[sweep]") {
    const DeviceConfig cfg = load_device_config(default_device_config_path());
    const auto writes = cnn_register_writes(kSweepVector);
    const uint32_t wptr = layer0_register(cfg, LREG_WPTR_BASE);
    const uint32_t rows_reg = layer0_register(cfg, LREG_RCNT);
    REQUIRE(writes.count(wptr) == 1);
    REQUIRE(writes.count(rows_reg) == 1);
    // WPTR_BASE is bits 16:0 (docs/register-map.md); moving the output a few
    // words away leaves the expected output location unwritten.
    const uint32_t generated = writes.at(wptr) & 0x1FFFF;
    const uint32_t moved = generated + 0x40;

    const fs::path work = sweep_work_dir("grid");
    const fs::path csv = work / "out.csv";
    const ToolRun r = run_sweep(
        fmt::format("'{}' -o '{}' -j 2 --ai8xsim '{}' --field wptr=0x{:08x}:16:0 "
                    "--grid-field wptr={},{} --grid 0x{:08x}=0x{:x} --timeout 600",
                    kSweepVector, csv.string(), AI8XSIM_BINARY, wptr, generated, moved, rows_reg, writes.at(rows_reg)),
        work);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const auto rows = read_csv(csv);
    REQUIRE(rows.size() == 3);
    CHECK(rows[0] == std::vector<std::string>{"wptr", fmt::format("0x{:08x}", rows_reg), "verdict", "exit_code",
                                              "cnn_cycles", "hazards", "stall_cycles", "wall_s"});
    REQUIRE(rows[1].size() == 8);
    REQUIRE(rows[2].size() == 8);
    // Grid order: the first axis' values in the order given.
    CHECK(rows[1][0] == std::to_string(generated));
    CHECK(rows[2][0] == std::to_string(moved));
    CHECK(rows[1][1] == fmt::format("0x{:08x}", writes.at(rows_reg)));
    CHECK(rows[1][2] == "PASS");
    CHECK(rows[1][3] == "0");
    CHECK(rows[2][2] == "FAIL");
    CHECK(rows[2][3] != "0");
    CHECK(std::stoull(rows[1][4]) > 0);  // the CNN ran
    CHECK(std::stod(rows[1][7]) > 0);
    fs::remove_all(work);
}

TEST_CASE("sweep: argument errors exit 2 and name the culprit", "[sweep]") {
    const fs::path work = sweep_work_dir("args");
    const std::string bin = std::string("--ai8xsim '") + AI8XSIM_BINARY + "'";
    const std::string out = "-o '" + (work / "out.csv").string() + "'";

    ToolRun r = run_sweep("'" + kSweepVector + "' " + out + " " + bin + " --grid 0x50100010=1,zz", work);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("--grid '0x50100010=1,zz'") != std::string::npos);

    r = run_sweep("'" + kSweepVector + "' " + out + " " + bin + " --grid 0x50100010", work);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("--grid '0x50100010'") != std::string::npos);

    r = run_sweep("'" + kSweepVector + "' " + out + " " + bin + " --grid-field 0x50100010:3:9=1", work);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("HI:LO") != std::string::npos);

    r = run_sweep("'" + kSweepVector + "' " + out + " " + bin + " --grid-field 0x50100010:1:0=7", work);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("does not fit in 2 bits") != std::string::npos);

    // An address the generated code never writes has no bits to keep: the
    // last layer's STREAM2 of quadrant 0 (a one-layer plain vector).
    const DeviceConfig cfg = load_device_config(default_device_config_path());
    const uint32_t unused = layer0_register(cfg, LREG_STREAM2) + 4u * (cfg.max_layers - 1);
    REQUIRE(cnn_register_writes(kSweepVector).count(unused) == 0);
    r = run_sweep(fmt::format("'{}' {} {} --grid-field 0x{:08x}:1:0=1", kSweepVector, out, bin, unused), work);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(fmt::format("never writes 0x{:08x}", unused)) != std::string::npos);

    r = run_sweep("'" + (work / "no-such-vector").string() + "' " + out + " " + bin + " --grid 0x50100010=1", work);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("no-such-vector") != std::string::npos);

    r = run_sweep(
        "'" + kSweepVector + "' " + out + " --ai8xsim '" + (work / "no-ai8xsim").string() + "' --grid 0x50100010=1",
        work);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("no-ai8xsim") != std::string::npos);

    CHECK_FALSE(fs::exists(work / "out.csv"));  // no partial output on errors
    fs::remove_all(work);
}
