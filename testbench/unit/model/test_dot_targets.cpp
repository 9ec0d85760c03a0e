// Every SIMD target of the dot kernel (model/engine/dot_kernel.h) that this
// host runs computes, for every golden vector of ../shared/vectors, exactly
// what the plain C++ path computes: the same data memory, statistics,
// warnings, captured layer outputs and activity. (The MAX78002 vectors and
// the randomized layers are held to the same with AI8XSIM_DOT_KERNEL=check:
// ctest's "every SIMD target checked" runs and CI's conformance runs.)
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "model/engine/dot_kernel.h"
#include "testbench/unit/model/engine_outcome.h"
#include "testbench/unit/model/vector_loader.h"
#include "testbench/unit/test_support.h"

using namespace ai8x;

namespace {

void compare_targets(const std::vector<std::string>& names, bool fifo) {
    const DeviceConfig cfg = load_device_config(default_device_config_path());
    const std::vector<int64_t> targets = dot_kernel_targets();
    INFO("targets on this host: " << dot_kernel_target_names());
    REQUIRE_FALSE(targets.empty());
    for (const auto& name : names) {
        INFO(name);
        force_dot_kernel_target(kPlainPath);
        const test::EngineOutcome plain = test::run_engine(cfg, name, fifo, nullptr);
        // Something must have been computed, or the comparison proves nothing.
        REQUIRE_FALSE(plain.layers.empty());
        for (int64_t target : targets) {
            force_dot_kernel_target(target);
            INFO("target " << dot_kernel_in_use());
            test::require_same(plain, test::run_engine(cfg, name, fifo, nullptr));
        }
    }
    force_dot_kernel_target(0);
}

}  // namespace

TEST_CASE("dot kernel targets: every plain golden vector gives what the plain path gives", "[engine][dot][vectors]") {
    const std::vector<std::string> names = test::plain_vector_names(test::kVectors);
    REQUIRE(names.size() >= 100u);
    compare_targets(names, false);
}

TEST_CASE("dot kernel targets: every FIFO and streaming golden vector gives what the plain path gives",
          "[engine][dot][vectors][stream]") {
    const std::vector<std::string> names = test::fifo_vector_names(test::kVectors);
    REQUIRE(names.size() >= 18u);
    compare_targets(names, true);
}

TEST_CASE("dot kernel check mode reports the first value that differs from the plain path", "[engine][dot]") {
    // Two pixels of a 1x1 convolution of 3 channels into 16 outputs.
    const std::vector<int16_t> image = {1, -2, 3, 4, 5, -6, 0, 0};  // two pixels and the slack
    std::vector<int16_t> weights(2 * kBlockOutputs * 2, 0);
    for (std::size_t n = 0; n < weights.size(); ++n) weights[n] = static_cast<int16_t>(n % 7) - 3;
    const std::vector<int32_t> bias(kBlockOutputs, 128);
    ConvProblem p{image.data(), 2, 3, 1, 2, 2, weights.data(), 1, bias.data(), 7, arith::Activation::None, false};
    std::vector<int8_t> results(2 * kBlockOutputs);
    compute_pixels_plain(p, 0, 2, results.data());
    CHECK_NOTHROW(check_against_every_target(p, 0, 2, results.data()));
    results[kBlockOutputs + 5] ^= 1;  // pixel 1, output 5
    CHECK_THROWS_WITH(check_against_every_target(p, 0, 2, results.data()),
                      Catch::Contains("pixel 1, output 5") && Catch::Contains("the plain path"));
}
