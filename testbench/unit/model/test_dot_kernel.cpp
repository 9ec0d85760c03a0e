// The convolution's matrix-product kernel (model/engine/dot_kernel.*) and its
// operand layout. Expected values come from a direct convolution written here
// over the unpacked planes and weights with int64 sums and model/arith's
// rules, independent of the packing and the SIMD code; every Highway target
// this host runs and the plain path must equal it. The extreme cases are the
// ones where an int32 lane would overflow if the kernel did not check its
// bound and fall back to int64 sums.
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <vector>

#include "model/engine/conv_layout.h"
#include "model/engine/dot_kernel.h"

using namespace ai8x;

namespace {

// One random convolution: planes, weights, bias and post-processing.
struct Case {
    InputPlanes in;
    LayerWeights weights;
    uint32_t kernel_rows = 1, kernel_cols = 1, pad_rows = 0, pad_cols = 0, spread = 1;
    std::vector<int32_t> bias;  // per output
    int shift = 0;
    arith::Activation activation = arith::Activation::None;
    bool wide = false;
};

// The padded, spread input value of channel (i, j) at padded position (r, c).
int64_t input_at(const Case& k, uint32_t i, uint32_t j, uint32_t r, uint32_t c) {
    if (r < k.pad_rows || c < k.pad_cols) return 0;
    r -= k.pad_rows;
    c -= k.pad_cols;
    if (r % k.spread || c % k.spread || r / k.spread >= k.in.rows || c / k.spread >= k.in.cols) return 0;
    return k.in.plane(k.weights.processor_index[i], j)[(r / k.spread) * k.in.cols + c / k.spread];
}

// Direct convolution: results[pixel][output] as int64 after post-processing.
std::vector<int64_t> direct(const Case& k, uint32_t out_rows, uint32_t out_cols) {
    const LayerWeights& w = k.weights;
    std::vector<int64_t> out;
    for (uint32_t r = 0; r < out_rows; ++r)
        for (uint32_t c = 0; c < out_cols; ++c)
            for (uint32_t o = 0; o < w.outputs; ++o) {
                int64_t sum = k.bias[o];
                for (uint32_t i = 0; i < w.processors; ++i)
                    for (uint32_t j = 0; j < w.passes; ++j)
                        for (uint32_t t = 0; t < w.taps; ++t)
                            sum += input_at(k, i, j, r + t / k.kernel_cols, c + t % k.kernel_cols) * w.at(o, i, j, t);
                if (!k.wide) {
                    out.push_back(arith::finish_output(sum, k.shift, k.activation));
                    continue;
                }
                if (sum < 0 && k.activation != arith::Activation::None)
                    sum = k.activation == arith::Activation::ReLU ? 0 : -sum;
                out.push_back(arith::wide_output(sum));
            }
    return out;
}

// `data_min`: the smallest input value (0 for a layer after a ReLU, whose
// image the kernel takes as byte operands).
Case random_case(std::mt19937& rng, int data_min = -128) {
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    Case k;
    k.kernel_rows = static_cast<uint32_t>(pick(1, 3));
    k.kernel_cols = static_cast<uint32_t>(pick(1, 3));
    k.pad_rows = static_cast<uint32_t>(pick(0, 2));
    k.pad_cols = static_cast<uint32_t>(pick(0, 2));
    k.spread = static_cast<uint32_t>(pick(1, 2));
    k.in.rows = static_cast<uint32_t>(pick(3, 9));  // at least the kernel, without padding
    k.in.cols = static_cast<uint32_t>(pick(3, 9));
    k.in.passes = static_cast<uint32_t>(pick(1, 3));
    const uint32_t planes = static_cast<uint32_t>(pick(1, 24));
    k.in.planes.assign(planes, std::vector<std::vector<int8_t>>(k.in.passes));
    for (auto& processor : k.in.planes)
        for (auto& plane : processor)
            for (uint32_t n = 0; n < k.in.rows * k.in.cols; ++n)
                plane.push_back(static_cast<int8_t>(pick(data_min, 127)));
    LayerWeights& w = k.weights;
    for (uint32_t i = 0; i < planes; ++i)
        if (pick(0, 3) > 0) w.processor_index.push_back(static_cast<int>(i));  // some processors without weights
    if (w.processor_index.empty()) w.processor_index.push_back(0);
    w.processors = static_cast<uint32_t>(w.processor_index.size());
    w.passes = k.in.passes;
    w.taps = k.kernel_rows * k.kernel_cols;
    w.outputs = static_cast<uint32_t>(pick(1, 40));
    for (std::size_t n = 0; n < std::size_t{w.outputs} * w.processors * w.passes * w.taps; ++n)
        w.values.push_back(static_cast<int8_t>(pick(-128, 127)));
    for (uint32_t o = 0; o < w.outputs; ++o) k.bias.push_back(pick(-4, 4) * 128 * 128 + pick(-128, 127) * 128);
    k.shift = pick(arith::kOutputShiftMin, arith::kOutputShiftMax);
    k.activation = static_cast<arith::Activation>(pick(0, 2));
    k.wide = pick(0, 3) == 0;
    return k;
}

// Runs `k` through the layout and kernel (`first`/`count`: a part of the
// pixels; `bytes`: as byte operands, which needs inputs in [0, 127]) and
// returns results[pixel][output] without the padding outputs.
std::vector<int64_t> through_kernel(const Case& k, bool plain, std::size_t first, std::size_t count, uint32_t& out_rows,
                                    uint32_t& out_cols, bool bytes = false) {
    ConvImage image = make_conv_image(k.in, k.weights, k.pad_rows, k.pad_cols, k.spread);
    if (bytes) REQUIRE(make_byte_image(image));
    const PackedWeights packed = pack_weights(k.weights, k.kernel_rows, k.kernel_cols, bytes);
    out_rows = image.rows - k.kernel_rows + 1;
    out_cols = image.cols - k.kernel_cols + 1;
    std::vector<int32_t> bias(std::size_t{packed.blocks} * kBlockOutputs, 0);
    std::copy(k.bias.begin(), k.bias.end(), bias.begin());
    ConvProblem p{image.values.data(), image.cols, image.channels,       packed.kernel_rows,
                  packed.row_pairs,    out_cols,   packed.values.data(), packed.blocks,
                  bias.data(),         k.shift,    k.activation,         k.wide};
    if (bytes) {
        p.image = nullptr;
        p.weights = nullptr;
        p.image_bytes = image.bytes.data();
        p.weight_bytes = packed.bytes.data();
        p.row_quads = packed.row_quads;
    }
    if (count == 0) count = std::size_t{out_rows} * out_cols - first;
    const std::size_t stride = result_stride(p);
    std::vector<int32_t> wide(count * stride);
    std::vector<int8_t> narrow(count * stride);
    void* results = k.wide ? static_cast<void*>(wide.data()) : static_cast<void*>(narrow.data());
    if (plain)
        compute_pixels_plain(p, first, count, results);
    else
        compute_pixels(p, first, count, results);
    std::vector<int64_t> out;
    for (std::size_t n = 0; n < count; ++n)
        for (uint32_t o = 0; o < k.weights.outputs; ++o)
            out.push_back(k.wide ? wide[n * stride + o] : narrow[n * stride + o]);
    return out;
}

// Forces each target this host runs in turn (and the plain path), back to the default at the end.
template <typename F>
void for_every_target(F&& check) {
    std::vector<int64_t> targets = dot_kernel_targets();
    REQUIRE_FALSE(targets.empty());
    targets.push_back(kPlainPath);
    for (int64_t t : targets) {
        force_dot_kernel_target(t);
        INFO("kernel " << dot_kernel_in_use());
        check();
    }
    force_dot_kernel_target(0);
}

}  // namespace

TEST_CASE("dot kernel: every target equals a direct convolution on random layers", "[engine][dot]") {
    INFO("targets on this host: " << dot_kernel_target_names());
    for_every_target([] {
        std::mt19937 rng(2611);
        for (int n = 0; n < 150; ++n) {
            const Case k = random_case(rng);
            uint32_t rows = 0, cols = 0;
            const std::vector<int64_t> got = through_kernel(k, false, 0, 0, rows, cols);
            INFO("case " << n << ": " << k.weights.outputs << " outputs, " << k.weights.processors << "x"
                         << k.weights.passes << " channels, kernel " << k.kernel_rows << "x" << k.kernel_cols
                         << ", shift " << k.shift << (k.wide ? ", wide" : ""));
            REQUIRE(got == direct(k, rows, cols));
            // A part of the pixels, starting inside a row, as a thread's share computes it.
            const std::size_t pixels = std::size_t{rows} * cols, first = pixels / 3, count = pixels - first - 1;
            const std::vector<int64_t> part = through_kernel(k, false, first, count, rows, cols);
            const std::size_t outputs = k.weights.outputs;
            CHECK(part == std::vector<int64_t>(got.begin() + first * outputs, got.begin() + (first + count) * outputs));
        }
    });
}

TEST_CASE("dot kernel: every target equals a direct convolution with byte operands", "[engine][dot]") {
    INFO("targets on this host: " << dot_kernel_target_names());
    for_every_target([] {
        std::mt19937 rng(2613);
        for (int n = 0; n < 150; ++n) {
            const Case k = random_case(rng, 0);
            uint32_t rows = 0, cols = 0;
            const std::vector<int64_t> got = through_kernel(k, false, 0, 0, rows, cols, true);
            INFO("case " << n << ": " << k.weights.outputs << " outputs, " << k.weights.processors << "x"
                         << k.weights.passes << " channels, kernel " << k.kernel_rows << "x" << k.kernel_cols
                         << ", shift " << k.shift << (k.wide ? ", wide" : ""));
            REQUIRE(got == direct(k, rows, cols));
            const std::size_t pixels = std::size_t{rows} * cols, first = pixels / 3, count = pixels - first - 1;
            const std::vector<int64_t> part = through_kernel(k, false, first, count, rows, cols, true);
            const std::size_t outputs = k.weights.outputs;
            CHECK(part == std::vector<int64_t>(got.begin() + first * outputs, got.begin() + (first + count) * outputs));
        }
    });
}

TEST_CASE("dot kernel: the plain path equals a direct convolution on random layers", "[engine][dot]") {
    std::mt19937 rng(2612);
    for (int n = 0; n < 60; ++n) {
        const Case k = random_case(rng);
        uint32_t rows = 0, cols = 0;
        const std::vector<int64_t> got = through_kernel(k, true, 0, 0, rows, cols);
        REQUIRE(got == direct(k, rows, cols));
    }
}

namespace {

// One pixel, 16 outputs, `channels` channels of a 3x3 kernel, every data
// value -128 and every weight `weight`: the sum is channels * 9 * -128 * weight.
Case extreme_case(uint32_t channels, int8_t weight, bool wide) {
    Case k;
    k.kernel_rows = k.kernel_cols = 3;
    k.in.rows = k.in.cols = 3;
    k.in.passes = 1;
    k.in.planes.assign(channels, {std::vector<int8_t>(9, -128)});
    k.weights.processors = channels;
    k.weights.passes = 1;
    k.weights.taps = 9;
    k.weights.outputs = 16;
    for (uint32_t i = 0; i < channels; ++i) k.weights.processor_index.push_back(static_cast<int>(i));
    k.weights.values.assign(std::size_t{16} * channels * 9, weight);
    k.bias.assign(16, 0);
    k.wide = wide;
    return k;
}

}  // namespace

TEST_CASE("dot kernel stays exact where int32 lanes would overflow", "[engine][dot]") {
    for_every_target([] {
        // 7,281 channels: 65,529 values, the most the int32 lanes take (2^30 in magnitude).
        // 16,384 channels: 147,456 values sum to 147,456 * 2^14 > 2^31, computed in int64.
        for (uint32_t channels : {7281u, 16384u}) {
            for (bool wide : {false, true}) {
                const Case k = extreme_case(channels, -128, wide);
                uint32_t rows = 0, cols = 0;
                INFO(channels << " channels" << (wide ? ", wide" : ""));
                const std::vector<int64_t> got = through_kernel(k, false, 0, 0, rows, cols);
                REQUIRE(got == direct(k, rows, cols));
                if (wide) CHECK(got[0] == arith::wide_output(int64_t{channels} * 9 * 16384));
            }
        }
    });
}

TEST_CASE("dot kernel: byte operands at the ends of their ranges", "[engine][dot]") {
    // Data 127 against weights -128 and 127: every pmaddubsw pair at its
    // extreme (-32512, 32258), the lanes summing 9 taps of up to 64 channels.
    for_every_target([] {
        for (int weight : {-128, 127}) {
            for (uint32_t channels : {1u, 3u, 64u}) {
                Case k;
                k.kernel_rows = k.kernel_cols = 3;
                k.in.rows = k.in.cols = 4;
                k.in.passes = 1;
                k.in.planes.assign(channels, {std::vector<int8_t>(16, 127)});
                k.weights.processors = channels;
                k.weights.passes = 1;
                k.weights.taps = 9;
                k.weights.outputs = 20;
                for (uint32_t i = 0; i < channels; ++i) k.weights.processor_index.push_back(static_cast<int>(i));
                k.weights.values.assign(std::size_t{20} * channels * 9, static_cast<int8_t>(weight));
                k.bias.assign(20, 0);
                k.wide = true;
                uint32_t rows = 0, cols = 0;
                INFO(channels << " channels, weight " << weight);
                const std::vector<int64_t> got = through_kernel(k, false, 0, 0, rows, cols, true);
                REQUIRE(got == direct(k, rows, cols));
                CHECK(got[0] == int64_t{channels} * 9 * 127 * weight);
            }
        }
    });
}

TEST_CASE("byte image: only for values in [0, 127], with zero slack", "[engine][dot]") {
    InputPlanes in;
    in.rows = 1;
    in.cols = 3;
    in.passes = 1;
    in.planes = {{{0, 127, 5}}};
    LayerWeights lw;
    lw.processors = 1;
    lw.passes = 1;
    lw.processor_index = {0};
    ConvImage image = make_conv_image(in, lw, 0, 0, 1);
    REQUIRE(make_byte_image(image));
    CHECK(std::vector<uint8_t>(image.bytes.begin(), image.bytes.end()) == std::vector<uint8_t>{0, 127, 5, 0, 0, 0, 0});
    for (int8_t outside : {int8_t{-1}, int8_t{-128}}) {
        in.planes[0][0][2] = outside;
        ConvImage negative = make_conv_image(in, lw, 0, 0, 1);
        CHECK_FALSE(make_byte_image(negative));
        CHECK(negative.bytes.empty());
    }
}

namespace {

// 17 outputs of 3 channels and a 2x2 kernel; dense weight n is n % 97.
LayerWeights counting_weights() {
    LayerWeights lw;
    lw.outputs = 17;
    lw.processors = 3;
    lw.passes = 1;
    lw.taps = 4;
    for (uint32_t n = 0; n < lw.outputs * lw.processors * lw.taps; ++n)
        lw.values.push_back(static_cast<int8_t>(n % 97));
    return lw;
}

}  // namespace

TEST_CASE("packed weights in quads: blocks of 16 outputs, four (kernel column, channel) values a step",
          "[engine][dot]") {
    const LayerWeights lw = counting_weights();
    const PackedWeights p = pack_weights(lw, 2, 2, true);
    REQUIRE(p.quads);
    REQUIRE(p.values.empty());
    REQUIRE(p.row_quads == 2);  // 2 columns * 3 channels = 6 values per kernel row, padded to 8
    REQUIRE(p.bytes.size() == std::size_t{2} * 2 * 2 * kBlockOutputs * 4);
    // Output 16 (block 1, lane 0), kernel row 1, column 1, channel 2: segment position 5 = quad 1, value 1.
    CHECK(p.block_bytes(1)[(1 * 2 + 1) * kBlockOutputs * 4 + 0 * 4 + 1] == lw.at(16, 2, 0, 3));
    // Output 5, kernel row 0, column 0, channel 1: position 1 = quad 0, value 1.
    CHECK(p.block_bytes(0)[5 * 4 + 1] == lw.at(5, 1, 0, 0));
    // Positions 6 and 7 of each row (the padding of quad 1) weigh 0.
    for (std::size_t row = 0; row < 2; ++row)
        for (std::size_t lane = 0; lane < kBlockOutputs; ++lane) {
            CHECK(p.block_bytes(0)[(row * 2 + 1) * kBlockOutputs * 4 + lane * 4 + 2] == 0);
            CHECK(p.block_bytes(0)[(row * 2 + 1) * kBlockOutputs * 4 + lane * 4 + 3] == 0);
        }
}

TEST_CASE("packed weights: blocks of 16 outputs, pairs of (kernel column, channel) per kernel row", "[engine][dot]") {
    const LayerWeights lw = counting_weights();
    const PackedWeights p = pack_weights(lw, 2, 2);
    REQUIRE(p.blocks == 2);
    REQUIRE(p.row_pairs == 3);  // 2 columns * 3 channels = 6 values per kernel row
    REQUIRE(p.values.size() == std::size_t{2} * 2 * 3 * kBlockOutputs * 2);
    // Output 16 (block 1, lane 0), kernel row 1, column 1, channel 2: segment position 5 = pair 2, second.
    const int16_t* at = p.block(1) + (1 * 3 + 2) * kBlockOutputs * 2 + 0 * 2 + 1;
    CHECK(*at == lw.at(16, 2, 0, 3));
    // Output 5, kernel row 0, column 0, channel 1: position 1 = pair 0, second.
    CHECK(p.block(0)[5 * 2 + 1] == lw.at(5, 1, 0, 0));
    // Lanes of outputs 17..31 are zero.
    for (std::size_t n = 0; n < 2 * 3; ++n)
        for (std::size_t lane = 1; lane < kBlockOutputs; ++lane) {
            CHECK(p.block(1)[n * kBlockOutputs * 2 + lane * 2] == 0);
            CHECK(p.block(1)[n * kBlockOutputs * 2 + lane * 2 + 1] == 0);
        }
}

TEST_CASE("conv image is channel-last, zero-padded and spread for transposed convolution", "[engine][dot]") {
    InputPlanes in;
    in.rows = 2;
    in.cols = 2;
    in.passes = 1;
    in.planes = {{{1, 2, 3, 4}}, {{-1, -2, -3, -4}}};
    LayerWeights lw;
    lw.processors = 2;
    lw.passes = 1;
    lw.processor_index = {1, 0};  // weight processor 0 reads plane 1
    const ConvImage image = make_conv_image(in, lw, 1, 0, 2);
    REQUIRE(image.rows == 6);
    REQUIRE(image.cols == 4);
    REQUIRE(image.channels == 2);
    REQUIRE(image.values.size() == 6 * 4 * 2 + kImageSlack);
    auto at = [&](uint32_t r, uint32_t c, uint32_t ch) { return image.values[(r * image.cols + c) * 2 + ch]; };
    CHECK(at(1, 0, 0) == -1);
    CHECK(at(1, 0, 1) == 1);
    CHECK(at(1, 2, 1) == 2);
    CHECK(at(3, 2, 0) == -4);
    CHECK(at(0, 0, 0) == 0);
    CHECK(at(1, 1, 1) == 0);
    CHECK(at(2, 0, 1) == 0);
}
