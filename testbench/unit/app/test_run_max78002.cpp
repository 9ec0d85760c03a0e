// MAX78002 golden vectors, one per feature the model gained for that device,
// reach the firmware's own PASS (the known answers are the vendor generator's).
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "app/run_options.h"
#include "testbench/unit/app/app_test_support.h"
#include "build_paths.h"

using namespace ai8x;
using namespace ai8x::test;
namespace fs = std::filesystem;

namespace {

int run_vector(const std::string& name) {
    const fs::path work = scratch("m2-" + name);
    RunOptions o = run_options_for(std::string(AI8XSIM_SHARED_DIR) + "/vectors-max78002/" + name, work);
    const int rc = run_command(o);
    fs::remove_all(work);
    return rc;
}

}  // namespace

TEST_CASE("MAX78002: a plain 64-channel convolution over all quadrants passes", "[run][max78002]") {
    CHECK(run_vector("t-test-burnin_64x8x8") == kRunPass);
}

TEST_CASE("MAX78002: a demo network with the PLL clock passes", "[run][max78002]") {
    CHECK(run_vector("demo87-mnist") == kRunPass);
}

TEST_CASE("MAX78002: binary -1/+1 weights pass", "[run][max78002]") { CHECK(run_vector("t-test-binary") == kRunPass); }

TEST_CASE("MAX78002: pool dilation passes", "[run][max78002]") {
    CHECK(run_vector("t-test-conv2d-pooldilation") == kRunPass);
}

TEST_CASE("MAX78002: depth-wise convolution with broadcast bias passes", "[run][max78002]") {
    CHECK(run_vector("t-test-depthwise-128-bias") == kRunPass);
}

TEST_CASE("MAX78002: depth-wise convolution with bias in a partly used quadrant passes", "[run][max78002]") {
    CHECK(run_vector("t-test-depthwise-pool") == kRunPass);
}

TEST_CASE("MAX78002: kernel bypass passes", "[run][max78002]") { CHECK(run_vector("t-test-bypass") == kRunPass); }

TEST_CASE("MAX78002: a FIFO streaming network passes", "[run][max78002]") {
    CHECK(run_vector("t-test-fifostream-32-hwc") == kRunPass);
}

TEST_CASE("MAX78002: firmware that programs the snoop registers runs to its verdict", "[run][max78002]") {
    CHECK(run_vector("t-test-snoop-count") == kRunPass);
}

// One simulation per test case (SystemC elaborates once per process).
TEST_CASE("MAX78002: a layer link skips the layers between (snoop-skip: 0 -> 3)", "[run][max78002]") {
    CHECK(run_vector("t-test-snoop-skip") == kRunPass);
}

TEST_CASE("MAX78002: a layer link from a later layer (snoop2-skipl1: 1 -> 4)", "[run][max78002]") {
    CHECK(run_vector("t-test-snoop2-skipl1") == kRunPass);
}
