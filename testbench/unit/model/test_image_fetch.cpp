// The HWC input read straight into the convolution image (image_fetch.h)
// against the per-processor planes it replaces (fetch_inputs() then
// make_conv_image(), value by value), and its byte moves
// (pixel_channels.h) against their plain loops.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <vector>

#include "model/engine/conv_layout.h"
#include "model/engine/image_fetch.h"
#include "model/engine/input_fetch.h"
#include "model/engine/kernel_fetch.h"
#include "model/engine/pixel_channels.h"

using namespace ai8x;

namespace {

const DeviceConfig& device() {
    static const DeviceConfig cfg = load_device_config(default_device_config_path());
    return cfg;
}

// Pixel moves into a row of `pitch` values per pixel, the rest of the row
// left at a marker; the SSE2 path and the plain loop must leave the same row.
template <typename T>
void check_pixel_moves(std::mt19937& rng) {
    for (uint32_t passes = 1; passes <= 5; ++passes)
        for (std::size_t pixels = 0; pixels <= 9; ++pixels) {
            const std::size_t pitch = 4 * passes + rng() % 5;
            std::vector<uint32_t> words(pixels * passes);
            for (uint32_t& w : words) w = static_cast<uint32_t>(rng());
            std::vector<T> best(pixels * pitch + 16, T{99}), plain = best;
            pixel_channels(words.data(), pixels, passes, best.data(), pitch, ByteMoves::best);
            pixel_channels(words.data(), pixels, passes, plain.data(), pitch, ByteMoves::plain);
            INFO("passes " << passes << " pixels " << pixels << " pitch " << pitch);
            REQUIRE(best == plain);
            // The plain loop's definition: lane k's value of pass j at k * passes + j.
            for (std::size_t px = 0; px < pixels; ++px)
                for (uint32_t j = 0; j < passes; ++j)
                    for (unsigned k = 0; k < 4; ++k)
                        REQUIRE(plain[px * pitch + k * passes + j] ==
                                static_cast<int8_t>(words[px * passes + j] >> (8 * k)));
            for (std::size_t px = 0; px < pixels; ++px)
                for (std::size_t v = 4 * passes; v < pitch; ++v) REQUIRE(plain[px * pitch + v] == T{99});
        }
}

// A random HWC convolution layer reading quadrant 0's first data memory
// instances: some processors of each group, 1-4 passes, pooling sometimes,
// the read pointer sometimes near the end of memory (words beyond read 0).
LayerConfig random_input_layer(std::mt19937& rng, uint32_t words) {
    auto pick = [&](uint32_t lo, uint32_t hi) { return std::uniform_int_distribution<uint32_t>(lo, hi)(rng); };
    LayerConfig c;
    c.layer = 2;
    c.lead_quadrant = 0;
    c.convolution = true;
    c.passes = pick(1, 4);
    c.pixel_pitch = c.passes;
    c.in_rows = pick(1, 9);
    c.in_cols = pick(1, 9);
    c.pad_rows = pick(0, 2);
    c.pad_cols = pick(0, 2);
    c.pool_enabled = pick(0, 2) == 0;
    c.pool_max = pick(0, 1) == 1;
    c.pool_rows = c.pool_cols = c.pool_stride =
        c.pool_enabled ? pick(1, std::min(2u, std::min(c.in_rows, c.in_cols))) : 1;
    c.pooled_rows = (c.in_rows - c.pool_rows) / c.pool_stride + 1;
    c.pooled_cols = (c.in_cols - c.pool_cols) / c.pool_stride + 1;
    for (int p = 0; p < 16; ++p)
        if (pick(0, 3) != 0) c.processors.push_back({0, p, p, pick(0, 5) != 0});
    if (c.processors.empty()) c.processors.push_back({0, 0, 0, true});
    const uint32_t span = c.in_rows * c.in_cols * c.passes;
    c.read_base = pick(0, 4) == 0 ? words - pick(1, span) : pick(0, words - span);
    return c;
}

}  // namespace

TEST_CASE("pixel channel moves equal the plain loop", "[engine][image_fetch]") {
    std::mt19937 rng(126);
    check_pixel_moves<int16_t>(rng);
    check_pixel_moves<int8_t>(rng);
}

TEST_CASE("the input read straight into the image equals the processors' planes", "[engine][image_fetch]") {
    AcceleratorState state{device()};
    const uint32_t words = state.cfg.data_sram.words;
    std::mt19937 rng(226);
    for (uint32_t i = 0; i < 4; ++i)
        for (uint32_t w = 0; w < words; ++w) {
            state.data_sram[i][w] = static_cast<uint32_t>(rng());
            state.data_written[i][w] = rng() % 64 != 0;
        }
    int beyond = 0, pooled = 0;
    for (int n = 0; n < 300; ++n) {
        const LayerConfig c = random_input_layer(rng, words);
        REQUIRE(reads_image_directly(c, nullptr));
        const uint32_t spread = n % 5 == 4 ? 2 : 1;
        std::vector<EngineWarning> direct_warnings, plane_warnings;
        uint64_t direct_reads = 0;
        const ConvImage direct = fetch_conv_image(state, c, spread, direct_warnings, direct_reads);
        const InputPlanes planes = fetch_inputs(state, c, plane_warnings);
        const ConvImage expected = make_conv_image(planes, weight_shape(c), c.pad_rows, c.pad_cols, spread);
        INFO("passes " << c.passes << " rows " << c.in_rows << " cols " << c.in_cols << " read " << c.read_base);
        REQUIRE(direct.rows == expected.rows);
        REQUIRE(direct.cols == expected.cols);
        REQUIRE(direct.channels == expected.channels);
        REQUIRE(direct.values == expected.values);
        CHECK(direct_reads == planes.word_reads);
        REQUIRE(direct_warnings.size() == plane_warnings.size());
        for (std::size_t k = 0; k < direct_warnings.size(); ++k)
            CHECK(direct_warnings[k].message == plane_warnings[k].message);
        beyond += c.read_base + c.in_rows * c.in_cols * c.passes > words;
        pooled += c.pool_enabled && c.pool_stride > 1;
    }
    CHECK(beyond > 20);
    CHECK(pooled > 20);
}

TEST_CASE("a multi-pass stride between pixels is read through the planes", "[engine][image_fetch]") {
    // MP_STRIDE (LayerConfig::pixel_pitch) skips words between pixels; the
    // straight read takes a pixel's words back to back, so it must not apply.
    LayerConfig c;
    c.passes = 2;
    c.pixel_pitch = 2;
    CHECK(reads_image_directly(c, nullptr));
    c.pixel_pitch = 3;
    CHECK_FALSE(reads_image_directly(c, nullptr));
}
