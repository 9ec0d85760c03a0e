// Small hand-computed layers for the reference model: every expected number
// below is worked out by hand (or, for the transposed convolution, by the
// scatter definition, which is independent of the gather loop under test).
#include <catch2/catch.hpp>

#include <random>

#include "testbench/reference/reference_layer.h"

using namespace ai8x;
using namespace ai8x::reference;

namespace {

Tensor make(int c, int h, int w, std::vector<int64_t> v) {
    Tensor t(c, h, w);
    REQUIRE(v.size() == t.size());
    t.values = std::move(v);
    return t;
}

Weights ones(int out, int in, int kh, int kw) {
    Weights w(out, in, kh, kw);
    for (auto& v : w.values) v = 1;
    return w;
}

LayerParams conv3x3(int out) {
    LayerParams p;
    p.op = Op::Conv2d;
    p.out_channels = out;
    return p;
}

}  // namespace

TEST_CASE("conv2d 3x3 with padding sums the neighbourhood", "[reference]") {
    const Tensor in = make(1, 3, 3, {1, 2, 3, 4, 5, 6, 7, 8, 9});
    LayerParams p = conv3x3(1);
    p.output_shift = 7;  // factor 2^7/128 = 1: output equals the accumulator
    const Tensor out = run_layer(p, {in}, ones(1, 1, 3, 3), {});
    // Neighbourhood sums with a zero border.
    CHECK(out.values == std::vector<int64_t>{12, 21, 16, 27, 45, 33, 24, 39, 28});
}

TEST_CASE("bias, output shift and rounding", "[reference]") {
    const Tensor in = make(1, 1, 1, {64});
    LayerParams p = conv3x3(2);
    p.kernel = {1, 1};
    p.padding = {0, 0};
    Weights w(2, 1, 1, 1);
    w.values = {1, -1};
    // shift 0: y = floor(0.5 + acc/128); acc = +-64 -> +0.5 -> 1, -0.5 -> 0.
    CHECK(run_layer(p, {in}, w, {}).values == std::vector<int64_t>{1, 0});
    // Bias b adds b*128, i.e. exactly b at shift 0.
    CHECK(run_layer(p, {in}, w, {3, -3}).values == std::vector<int64_t>{4, -3});
    // shift 3: y = floor(0.5 + acc/16): 64/16 = 4, -64/16 = -4.
    p.output_shift = 3;
    CHECK(run_layer(p, {in}, w, {}).values == std::vector<int64_t>{4, -4});
    // shift 15: 64 * 256 saturates.
    p.output_shift = 15;
    CHECK(run_layer(p, {in}, w, {}).values == std::vector<int64_t>{127, -128});
}

TEST_CASE("activations after saturation", "[reference]") {
    const Tensor in = make(1, 1, 1, {100});
    LayerParams p = conv3x3(3);
    p.kernel = {1, 1};
    p.padding = {0, 0};
    p.output_shift = 7;
    Weights w(3, 1, 1, 1);
    w.values = {-2, 1, -1};  // -200 (saturates to -128), 100, -100
    CHECK(run_layer(p, {in}, w, {}).values == std::vector<int64_t>{-128, 100, -100});
    p.activation = arith::Activation::ReLU;
    CHECK(run_layer(p, {in}, w, {}).values == std::vector<int64_t>{0, 100, 0});
    p.activation = arith::Activation::Abs;
    CHECK(run_layer(p, {in}, w, {}).values == std::vector<int64_t>{127, 100, 100});
}

TEST_CASE("wide output keeps the raw accumulator", "[reference]") {
    const Tensor in = make(2, 1, 1, {127, 127});
    LayerParams p = conv3x3(1);
    p.op = Op::Linear;
    p.kernel = {1, 1};
    p.padding = {0, 0};
    p.wide_output = true;
    p.output_shift = -15;  // ignored for 32-bit output
    Weights w(1, 2, 1, 1);
    w.values = {127, 127};
    // 2 * 127 * 127 + 5 * 128
    CHECK(run_layer(p, {in}, w, {5}).values == std::vector<int64_t>{32258 + 640});
    p.activation = arith::Activation::ReLU;
    CHECK_THROWS_AS(run_layer(p, {in}, w, {5}), std::invalid_argument);
}

TEST_CASE("max and average pooling before a 1x1 convolution", "[reference]") {
    const Tensor in = make(1, 4, 4,
                           {1, 2, 3, 4,      //
                            5, 6, 7, 8,      //
                            -1, -2, -3, -4,  //
                            -5, -6, -7, -9});
    LayerParams p = conv3x3(1);
    p.kernel = {1, 1};
    p.padding = {0, 0};
    p.output_shift = 7;
    p.pool = PoolType::Max;
    p.pool_size = {2, 2};
    p.pool_stride = {2, 2};
    CHECK(run_layer(p, {in}, ones(1, 1, 1, 1), {}).values == std::vector<int64_t>{6, 8, -1, -3});
    // Window sums 14, 22, -14, -23 divided by 4.
    p.pool = PoolType::Avg;
    CHECK(run_layer(p, {in}, ones(1, 1, 1, 1), {}).values == std::vector<int64_t>{3, 5, -3, -5});
    p.avg_rounding = arith::AvgPoolRounding::Round;
    CHECK(run_layer(p, {in}, ones(1, 1, 1, 1), {}).values == std::vector<int64_t>{4, 6, -4, -6});
    // Stride without a window subsamples; an overlapping 3x3/1 window keeps 2x2.
    p.pool = PoolType::Max;
    p.pool_size = {1, 1};
    CHECK(run_layer(p, {in}, ones(1, 1, 1, 1), {}).values == std::vector<int64_t>{1, 3, -1, -3});
    p.pool_size = {3, 3};
    p.pool_stride = {1, 1};
    CHECK(run_layer(p, {in}, ones(1, 1, 1, 1), {}).values == std::vector<int64_t>{7, 8, 7, 8});
}

TEST_CASE("element-wise before or after pooling", "[reference]") {
    const Tensor a = make(1, 2, 2, {100, 0, 0, 0});
    const Tensor b = make(1, 2, 2, {100, 0, 0, 100});
    LayerParams p;
    p.op = Op::Passthrough;
    p.pool = PoolType::Avg;
    p.pool_size = {2, 2};
    p.pool_stride = {2, 2};
    p.eltwise = arith::EltwiseOp::Add;
    // Pool first: avg(a) = 25, avg(b) = 50 -> 75.
    p.pool_first = true;
    CHECK(run_layer(p, {a, b}, {}, {}).values == std::vector<int64_t>{75});
    // Add first: {127 (saturated), 0, 0, 100} -> 227 / 4 = 56.
    p.pool_first = false;
    CHECK(run_layer(p, {a, b}, {}, {}).values == std::vector<int64_t>{56});
    // 32-bit passthrough keeps the unsaturated sum.
    LayerParams q;
    q.op = Op::Passthrough;
    q.wide_output = true;
    CHECK(run_layer(q, {a, b}, {}, {}).values == std::vector<int64_t>{200, 0, 0, 100});
    q.eltwise = arith::EltwiseOp::Sub;
    q.wide_output = false;
    CHECK(run_layer(q, {a, b, b}, {}, {}).values == std::vector<int64_t>{-100, 0, 0, -128});
}

TEST_CASE("conv1d with dilation and stride", "[reference]") {
    const Tensor in = make(1, 7, 1, {1, 2, 3, 4, 5, 6, 7});
    LayerParams p;
    p.op = Op::Conv1d;
    p.out_channels = 1;
    p.kernel = {3, 1};
    p.padding = {0, 0};
    p.dilation = {2, 1};
    p.output_shift = 7;
    Weights w(1, 1, 3, 1);
    w.values = {1, 10, -1};
    // y[i] = x[i] + 10 x[i+2] - x[i+4], i = 0..2
    CHECK(run_layer(p, {in}, w, {}).values == std::vector<int64_t>{26, 36, 46});
    p.stride = {2, 1};
    CHECK(run_layer(p, {in}, w, {}).values == std::vector<int64_t>{26, 46});
    // One zero on each side; windows start at x[-1], x[1], x[3] (x[-1] = x[7] = 0).
    p.padding = {1, 0};
    CHECK(run_layer(p, {in}, w, {}).values == std::vector<int64_t>{16, 36, 64});
}

TEST_CASE("flatten feeds every value to a linear layer", "[reference]") {
    const Tensor in = make(2, 2, 1, {1, 2, 3, 4});
    LayerParams p;
    p.op = Op::Linear;
    p.out_channels = 2;
    p.kernel = {1, 1};
    p.padding = {0, 0};
    p.flatten = true;
    p.output_shift = 7;
    Weights w(2, 4, 1, 1);
    w.values = {1, 2, 3, 4, -1, 0, 0, 1};  // channel-major order c0h0, c0h1, c1h0, c1h1
    CHECK(run_layer(p, {in}, w, {}).values == std::vector<int64_t>{30, 3});
}

TEST_CASE("depthwise groups use their own input channel", "[reference]") {
    const Tensor in = make(2, 1, 1, {3, 5});
    LayerParams p;
    p.op = Op::Conv2d;
    p.out_channels = 2;
    p.kernel = {1, 1};
    p.padding = {0, 0};
    p.groups = 2;
    p.output_shift = 7;
    Weights w(2, 1, 1, 1);
    w.values = {2, -3};
    CHECK(run_layer(p, {in}, w, {}).values == std::vector<int64_t>{6, -15});
}

TEST_CASE("transposed convolution equals the scatter definition", "[reference]") {
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> val(-128, 127);
    const int C = 3, O = 2, H = 4, W = 3, K = 3, S = 2, P = 1, OP = 1;
    Tensor in(C, H, W);
    for (auto& v : in.values) v = val(rng);
    Weights torch_w(C, O, K, K);  // PyTorch ConvTranspose2d layout: (in, out, kh, kw)
    for (auto& v : torch_w.values) v = static_cast<int8_t>(val(rng));

    // Scatter: every input value adds w * x into a K x K patch of the output.
    const int OH = (H - 1) * S - 2 * P + K + OP, OW = (W - 1) * S - 2 * P + K + OP;
    std::vector<int64_t> expect(static_cast<std::size_t>(O) * OH * OW, 0);
    for (int c = 0; c < C; ++c)
        for (int y = 0; y < H; ++y)
            for (int x = 0; x < W; ++x)
                for (int o = 0; o < O; ++o)
                    for (int ky = 0; ky < K; ++ky)
                        for (int kx = 0; kx < K; ++kx) {
                            const int oy = y * S - P + ky, ox = x * S - P + kx;
                            if (oy < 0 || oy >= OH || ox < 0 || ox >= OW) continue;
                            expect[(static_cast<std::size_t>(o) * OH + oy) * OW + ox] +=
                                in.at(c, y, x) * torch_w.at(c, o, ky, kx);
                        }

    // The reference takes the kernels as the generator stores them: flipped
    // spatially, with in/out swapped.
    Weights w(O, C, K, K);
    for (int o = 0; o < O; ++o)
        for (int c = 0; c < C; ++c)
            for (int ky = 0; ky < K; ++ky)
                for (int kx = 0; kx < K; ++kx) w.at(o, c, ky, kx) = torch_w.at(c, o, K - 1 - ky, K - 1 - kx);
    LayerParams p;
    p.op = Op::ConvTranspose2d;
    p.out_channels = O;
    p.kernel = {K, K};
    p.stride = {S, S};
    p.padding = {P, P};
    p.output_padding = {OP, OP};
    const Tensor acc = accumulate(in, p, w, {});
    CHECK(acc.height == OH);
    CHECK(acc.width == OW);
    CHECK(acc.values == expect);
}

TEST_CASE("invalid layers are rejected with a message", "[reference]") {
    const Tensor in = make(1, 2, 2, {1, 2, 3, 4});
    LayerParams p = conv3x3(1);
    CHECK_THROWS_AS(run_layer(p, {}, ones(1, 1, 3, 3), {}), std::invalid_argument);
    CHECK_THROWS_AS(run_layer(p, {in}, ones(2, 1, 3, 3), {}), std::invalid_argument);
    CHECK_THROWS_AS(run_layer(p, {in}, ones(1, 1, 3, 3), {1, 2}), std::invalid_argument);
    CHECK_THROWS_AS(run_layer(p, {make(1, 1, 1, {300})}, ones(1, 1, 3, 3), {}), std::invalid_argument);
    p.pool = PoolType::Max;
    p.pool_size = {3, 3};
    CHECK_THROWS_AS(run_layer(p, {in}, ones(1, 1, 3, 3), {}), std::invalid_argument);
    LayerParams q;
    q.op = Op::Passthrough;
    CHECK_THROWS_AS(run_layer(q, {in, make(1, 1, 1, {0})}, {}, {}), std::invalid_argument);
    try {
        run_layer(conv3x3(1), {in}, ones(1, 2, 3, 3), {});
        FAIL("no exception");
    } catch (const std::invalid_argument& e) {
        CHECK(std::string(e.what()).find("weights are 1x2x3x3, layer needs 1x1x3x3") != std::string::npos);
    }
}
