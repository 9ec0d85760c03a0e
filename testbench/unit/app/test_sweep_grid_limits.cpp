// ai8xsim-sweep refuses a grid too large to run before listing its points
// (found by fuzz_arguments: `--grid ADDR=0:4294967295:1` made the tool allocate
// 16 GiB for four billion values; docs/fuzzing.md). Exit 2, nothing run.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <sys/wait.h>

#include "testbench/unit/app/app_test_support.h"
#include "testbench/unit/fuzz_regression.h"
#include "testbench/unit/test_support.h"
#include "build_paths.h"

using namespace ai8x::test;
namespace fs = std::filesystem;

namespace {

struct SweepExit {
    int code;
    std::string err;
};

// The sweep over a plain vector with `axes` (shell-quoted), stderr captured.
SweepExit sweep_with(const std::string& axes) {
    const fs::path work = scratch("sweep-grid-limits");
    const std::string cmd = std::string("'") + AI8XSIM_SWEEP_BINARY + "' '" + AI8XSIM_SHARED_DIR +
                            "/vectors/t-test-conv1d-1' -o '" + (work / "out.csv").string() + "' --ai8xsim '" +
                            AI8XSIM_BINARY + "' " + axes + " 2>'" + (work / "err.txt").string() + "' >/dev/null";
    const int status = std::system(cmd.c_str());
    REQUIRE(status != -1);
    CHECK_FALSE(fs::exists(work / "out.csv"));
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(work / "err.txt")};
}

}  // namespace

TEST_CASE("sweep: a range of four billion values is refused, not listed", "[sweep][fuzz]") {
    const std::string grid = fuzz_regression_text("fuzz_arguments", "grid-range-4g-values");
    const SweepExit r = sweep_with("--grid '" + grid + "'");
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::Contains("--grid '" + grid + "'") && Catch::Contains("4294967296 values"));
}

TEST_CASE("sweep: axes whose product exceeds the point limit are refused", "[sweep][fuzz]") {
    // Three axes of 1001 values each: each allowed alone, 1.003e9 points together.
    const SweepExit r = sweep_with("--grid 0x50100010=0:1000:1 --grid 0x50100014=0:1000:1 --grid 0x50100018=0:1000:1");
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::Contains("points"));
}
