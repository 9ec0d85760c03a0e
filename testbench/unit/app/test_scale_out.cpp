// Scale-out (docs/scale-out.md): a sweep and a conformance sample written as
// job lists, run through GNU parallel on this machine (and the Slurm script
// run task by task as Slurm would) and merged, give the same table as the
// local run, apart from wall times. A merge with a job missing says which.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "model/registers/quadrant_registers.h"
#include "testbench/unit/app/app_test_support.h"
#include "testbench/unit/app/tool_test_support.h"
#include "tlm/device_config.h"
#include "build_paths.h"

using namespace ai8x;
using namespace ai8x::test;
namespace fs = std::filesystem;

namespace {

using test::kVectors;
// One vector of each kind the conformance runner knows: plain, FIFO, streaming.
const std::vector<std::string> kScaleOutSample = {"demo-mnist-extrasmall", "t-test-conv1d-1", "t-test-fifo-hwc",
                                                  "t-test-fifostream-nonsquare-hwc"};

std::string only_sample() {
    std::string args;
    for (const auto& v : kScaleOutSample) args += " --only " + v;
    return args;
}

// A 3 x 2 grid over two layer-0 registers of t-test-conv1d-1: the output
// pointer (field) and the row count (whole register), generated values included.
std::string sweep_grid() {
    const std::string vector = kVectors + "/t-test-conv1d-1";
    const DeviceConfig cfg = load_device_config(default_device_config_path());
    auto layer0 = [&](unsigned kind) {
        return static_cast<uint32_t>(cfg.quadrant_regs.base + cfg.layer_register_offset +
                                     uint64_t{kind} * cfg.layer_register_stride);
    };
    const auto writes = cnn_register_writes(vector);
    const uint32_t wptr = layer0(LREG_WPTR_BASE), rows = layer0(LREG_RCNT);
    REQUIRE(writes.count(wptr) == 1);
    REQUIRE(writes.count(rows) == 1);
    const uint32_t generated = writes.at(wptr) & 0x1FFFF;
    return fmt::format(
        "'{}' --ai8xsim '{}' --build-dir '{}' --field wptr=0x{:08x}:16:0 "
        "--grid-field wptr={},{},{} --grid 0x{:08x}=0x{:x},0x{:x}",
        vector, AI8XSIM_BINARY, ai8x::test::firmware_cache(), wptr, generated, generated + 0x40, generated + 0x80, rows,
        writes.at(rows), writes.at(rows) + 1);
}

}  // namespace

TEST_CASE("scale-out: a sweep through GNU parallel and --merge equals the local sweep", "[scale-out][sweep]") {
    const fs::path work = scratch("scale-sweep");
    const fs::path local = work / "local.csv", merged = work / "merged.csv", jobs = work / "jobs";
    ShellRun r =
        run_shell(fmt::format("'{}' {} -o '{}' -j 2", AI8XSIM_SWEEP_BINARY, sweep_grid(), local.string()), work);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);

    r = run_shell(fmt::format("'{}' {} --write-jobs '{}'", AI8XSIM_SWEEP_BINARY, sweep_grid(), jobs.string()), work);
    REQUIRE(r.exit_code == 0);
    REQUIRE(file_lines(jobs / "jobs.txt").size() == 6);
    // Before any job ran, a merge names what is missing and writes nothing.
    r = run_shell(fmt::format("'{}' --merge '{}' -o '{}'", AI8XSIM_SWEEP_BINARY, jobs.string(), merged.string()), work);
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("6 of 6 points have no result") != std::string::npos);
    CHECK_FALSE(fs::exists(merged));

    r = run_shell(fmt::format("parallel -j 2 --halt now,fail=1 < '{}'", (jobs / "jobs.txt").string()), work);
    INFO(r.out + r.err);
    REQUIRE(r.exit_code == 0);
    r = run_shell(fmt::format("'{}' --merge '{}' -o '{}'", AI8XSIM_SWEEP_BINARY, jobs.string(), merged.string()), work);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const auto expected = sweep_rows_without_wall(local);
    REQUIRE(expected.size() == 7);
    CHECK(sweep_rows_without_wall(merged) == expected);
    // Passing and failing points both: the comparison covers different rows.
    const auto verdicts = [&](const char* v) {
        return std::count_if(expected.begin(), expected.end(), [&](const auto& row) { return row[2] == v; });
    };
    CHECK(verdicts("PASS") >= 1);
    CHECK(verdicts("FAIL") >= 1);

    // The Slurm array script, each task as Slurm starts it (SLURM_ARRAY_TASK_ID).
    fs::remove_all(jobs / "points");
    fs::create_directories(jobs / "points");
    const std::string script = slurp(jobs / "slurm.sh");
    CHECK(script.find("#SBATCH --array=0-5\n") != std::string::npos);
    for (int task = 0; task < 6; ++task) {
        r = run_shell(fmt::format("SLURM_ARRAY_TASK_ID={} bash '{}'", task, (jobs / "slurm.sh").string()), work);
        INFO(r.err);
        REQUIRE(r.exit_code == 0);
    }
    fs::remove(merged);
    r = run_shell(fmt::format("'{}' --merge '{}' -o '{}'", AI8XSIM_SWEEP_BINARY, jobs.string(), merged.string()), work);
    REQUIRE(r.exit_code == 0);
    CHECK(sweep_rows_without_wall(merged) == expected);
    fs::remove_all(work);
}

TEST_CASE("scale-out: a conformance sample through GNU parallel and --merge equals the local run",
          "[scale-out][conformance]") {
    const fs::path work = scratch("scale-conformance");
    const std::string common =
        fmt::format("'{}' '{}' --ai8xsim '{}' --build-root '{}.fwcache-conformance'{}", AI8XSIM_CONFORMANCE_BINARY,
                    kVectors, AI8XSIM_BINARY, AI8XSIM_BINARY, only_sample());
    ShellRun local = run_shell(common + " -j 2 --work-dir '" + (work / "local").string() + "'", work);
    INFO(local.err);
    REQUIRE(local.exit_code == 0);
    REQUIRE(local.out.find("4 passed, 0 failed") != std::string::npos);

    const fs::path jobs = work / "jobs";
    ShellRun r = run_shell(common + " --write-jobs '" + jobs.string() + "'", work);
    REQUIRE(r.exit_code == 0);
    REQUIRE(file_lines(jobs / "jobs.txt").size() == kScaleOutSample.size());
    r = run_shell(fmt::format("parallel -j 2 --halt now,fail=1 < '{}'", (jobs / "jobs.txt").string()), work);
    INFO(r.out + r.err);
    REQUIRE(r.exit_code == 0);
    const ShellRun merged =
        run_shell(fmt::format("'{}' --merge '{}'", AI8XSIM_CONFORMANCE_BINARY, jobs.string()), work);
    INFO(merged.err);
    REQUIRE(merged.exit_code == 0);
    CHECK(conformance_report_without_wall(merged.out) == conformance_report_without_wall(local.out));

    // A job whose result is lost: its vector counts as not run, and failed.
    fs::remove(jobs / "results-t-test-fifo-hwc.jsonl");
    r = run_shell(fmt::format("'{}' --merge '{}'", AI8XSIM_CONFORMANCE_BINARY, jobs.string()), work);
    CHECK(r.exit_code == 1);
    CHECK(r.out.find("NOT-RUN") != std::string::npos);
    CHECK(r.out.find("3 passed, 1 failed") != std::string::npos);
    fs::remove_all(work);
}

TEST_CASE("conformance: an interrupted run resumed with --resume gives the same report", "[conformance][resume]") {
    const fs::path work = scratch("conformance-resume");
    const std::string common =
        fmt::format("'{}' '{}' --ai8xsim '{}' --build-root '{}.fwcache-conformance' -j 2{}", AI8XSIM_CONFORMANCE_BINARY,
                    kVectors, AI8XSIM_BINARY, AI8XSIM_BINARY, only_sample());
    const ShellRun whole = run_shell(common + " --work-dir '" + (work / "whole").string() + "'", work);
    REQUIRE(whole.exit_code == 0);
    const auto results = file_lines(work / "whole" / "results.jsonl");
    REQUIRE(results.size() == kScaleOutSample.size() + 1);  // header + one line per vector

    // As if killed after two vectors, in the middle of writing the third line.
    const fs::path cut = work / "cut";
    fs::copy(work / "whole", cut);
    std::ofstream(cut / "results.jsonl", std::ios::trunc) << results[0] << "\n"
                                                          << results[1] << "\n"
                                                          << results[2] << "\n"
                                                          << results[3].substr(0, 10);
    const ShellRun resumed = run_shell(common + " --resume --work-dir '" + cut.string() + "'", work);
    INFO(resumed.err);
    REQUIRE(resumed.exit_code == 0);
    CHECK(resumed.err.find(fmt::format("{} vector(s), {} to run", kScaleOutSample.size(),
                                       kScaleOutSample.size() - 2)) != std::string::npos);
    CHECK(conformance_report_without_wall(resumed.out) == conformance_report_without_wall(whole.out));
    CHECK(file_lines(cut / "results.jsonl").size() == kScaleOutSample.size() + 1);
    fs::remove_all(work);
}
