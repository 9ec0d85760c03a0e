// The generator-log reader on small hand-written logs: what it extracts, what
// it infers, and how it reports logs it cannot use.
#include <catch2/catch.hpp>

#include <sstream>

#include "testbench/reference/generator_log.h"
#include "testbench/reference/reference_layer.h"

using namespace ai8x;
using namespace ai8x::reference;

namespace {

// A two-layer log: a 1x3x3 -> 2x2x2 conv2d (3x3 kernel, no padding, dilation
// recoverable only from the shapes: 2x2 output needs dilation 1 here) with
// bias, then a max-pooling passthrough.
const char* const kLog = R"(ai8xize.py --device MAX78000 --verbose --config-file x.yaml
MAX78000

Per-layer configuration:
------------------------
Input channels      = [1, 2]
Input dimensions    = [[4, 4], [2, 2]]
Flatten             = [False, False]
Pooling             = [[1, 1], [2, 2]]
Pooling stride      = [[1, 1], [2, 2]]
Element-wise op     = [none, none]
Output channels     = [2, 2]
Output dimensions   = [[2, 2], [1, 1]]
Output shift        = [7, 0]
Output data bits    = [8, 8]
Operator            = [conv2d, passthrough]
Activation          = [ReLU, no]
Kernel dimensions   = [[3, 3], [1, 1]]
Convolution groups  = [1, 1]
Padding             = [[0, 0], [0, 0]]
Stride              = [[1, 1], [1, 1]]

Layer register configuration:
-----------------------------
LAYER 0 (CONV2D)...

1x4x4 INPUT DATA:
Channel #0
[[ 1  2  3  4]
 [ 5  6  7  8]
 [ 9 10 11 12]
 [13 14 15 16]]

3x3 KERNEL(S):
Output channel #0
[[[1 0 0]
  [0 0 0]
  [0 0 0]]]
Output channel #1
[[[ 0  0  0]
  [ 0 -1  0]
  [ 0  0  0]]]
BIAS: [ 1 -1]

2x2x2 ACTIVATED OUTPUT (RELU):
[[[ 129  257]
  [ 513  641]]

 [[   0    0]
  [   0    0]]]

LAYER 1 (PASSTHROUGH)...

2x2x2 INPUT DATA:
Channel #0
[[1 2]
 [3 4]]
Channel #1
[[-5 -6]
 [-7 -8]]
MAX POOL 2x2 WITH STRIDE 2/2 (2, 2, 2) -> [2, 1, 1]:
[[[ 4]]
 [[-5]]]

ESTIMATED LATENCY
)";

}  // namespace

TEST_CASE("generator log: layers, parameters and arrays are extracted", "[reference]") {
    std::istringstream text(kLog);
    const GeneratorLog log = parse_generator_log(text, "mini.log");
    REQUIRE(log.skipped.empty());
    REQUIRE(log.layers.size() == 2);

    const LogLayerCase& conv = log.layers[0];
    CHECK(conv.layer == 0);
    CHECK(conv.params.op == Op::Conv2d);
    CHECK(conv.params.out_channels == 2);
    CHECK(conv.params.kernel == Pair{3, 3});
    CHECK(conv.params.padding == Pair{0, 0});
    CHECK(conv.params.dilation == Pair{1, 1});
    CHECK(conv.params.activation == arith::Activation::ReLU);
    CHECK(conv.params.output_shift == 7);
    REQUIRE(conv.inputs.size() == 1);
    CHECK(conv.inputs[0].shape_string() == "1x4x4");
    CHECK(conv.inputs[0].at(0, 3, 2) == 15);
    CHECK(conv.weights.at(1, 0, 1, 1) == -1);
    CHECK(conv.bias == Bias{1, -1});
    CHECK(conv.expected.values == std::vector<int64_t>{129, 257, 513, 641, 0, 0, 0, 0});

    const LogLayerCase& pass = log.layers[1];
    CHECK(pass.params.op == Op::Passthrough);
    CHECK(pass.params.pool == PoolType::Max);
    CHECK(pass.params.pool_size == Pair{2, 2});
    CHECK(pass.expected.values == std::vector<int64_t>{4, -5});
    // The reference agrees with the hand-made log for the pooling layer...
    CHECK(run_layer(pass.params, pass.inputs, pass.weights, pass.bias).values == pass.expected.values);
    // ...and saturates the conv layer where the made-up log does not (x + 128 > 127).
    CHECK(run_layer(conv.params, conv.inputs, conv.weights, conv.bias).values ==
          std::vector<int64_t>{127, 127, 127, 127, 0, 0, 0, 0});
}

TEST_CASE("generator log: dilation is recovered from the shapes", "[reference]") {
    // With padding 1 the 4x4 input is 6x6 wide; a 3x3 kernel then yields 4x4 at
    // dilation 1 and 2x2 (the printed size) only at dilation 2.
    std::string log = kLog;
    const std::string pad = "Padding             = [[0, 0]";
    log.replace(log.find(pad), pad.size(), "Padding             = [[1, 1]");
    std::istringstream text(log);
    const GeneratorLog parsed = parse_generator_log(text, "dilated.log");
    REQUIRE(parsed.layers.size() == 2);
    CHECK(parsed.layers[0].params.padding == Pair{1, 1});
    CHECK(parsed.layers[0].params.dilation == Pair{2, 2});
}

TEST_CASE("generator log: arrays that do not fit the layer are skipped with a reason", "[reference]") {
    std::string log = kLog;
    const std::string kernel = "Kernel dimensions   = [[3, 3]";
    log.replace(log.find(kernel), kernel.size(), "Kernel dimensions   = [[3, 2]");
    std::istringstream text(log);
    const GeneratorLog parsed = parse_generator_log(text, "odd.log");
    REQUIRE(parsed.skipped.size() == 1);
    CHECK(parsed.skipped[0].find("layer 0 (odd.log:") == 0);
    CHECK(parsed.skipped[0].find("kernel array holds 18 values, expected 12") != std::string::npos);
    CHECK(parsed.layers.size() == 1);
}

TEST_CASE("generator log: bad input is reported with file and line", "[reference]") {
    std::istringstream not_a_log("hello\nworld\n");
    try {
        parse_generator_log(not_a_log, "bogus.txt");
        FAIL("no exception");
    } catch (const std::runtime_error& e) {
        CHECK(std::string(e.what()) == "bogus.txt:1: not a network generator log");
    }

    std::string truncated = kLog;
    truncated.replace(truncated.find(" [ 9 10 11 12]"), 14, " ...");
    std::istringstream text(truncated);
    const GeneratorLog log = parse_generator_log(text, "cut.log");
    REQUIRE(log.skipped.size() == 1);
    CHECK(log.skipped[0].find("log truncates the array") != std::string::npos);
    CHECK(log.layers.size() == 1);
}
