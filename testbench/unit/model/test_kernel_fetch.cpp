// Weight decoding from kernel memory: the run decoder (kernels back to back in
// the byte stream, gathered once) against the tap-by-tap reader on random
// memory contents and layouts. The tap-by-tap reader is reached through a
// calcx4 layer whose block size is 0: calcx4 then keeps every kernel at its
// plain place (kernel_fetch.cpp calcx4_kernel/calcx4_word), so both decode the
// same kernels, each its own way.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include "model/engine/conv_layout.h"
#include "model/engine/kernel_fetch.h"

using namespace ai8x;

namespace {

const DeviceConfig& device() {
    static const DeviceConfig cfg = load_device_config(default_device_config_path());
    return cfg;
}

struct Layout {
    uint32_t bits;
    arith::WeightFormat format;
    uint32_t slot;  // 1 (1x1), 9 (3x3) or k (1-D)
};

LayerConfig random_layer(std::mt19937& rng, const Layout& l, uint32_t kernel_words) {
    auto pick = [&](uint32_t lo, uint32_t hi) { return std::uniform_int_distribution<uint32_t>(lo, hi)(rng); };
    LayerConfig c;
    c.layer = 3;
    c.lead_quadrant = 0;
    c.weight_bits = l.bits;
    c.weight_format = l.format;
    c.binary_weights = l.bits == 1 && pick(0, 1) == 1;
    c.kernel_slot_bytes = l.slot;
    c.conv1d = l.slot != 1 && l.slot != 9;
    c.kernel_rows = c.conv1d ? l.slot : (l.slot == 9 ? 3 : 1);
    c.kernel_cols = c.conv1d ? 1 : c.kernel_rows;
    c.oned_start_byte = c.conv1d ? pick(0, 8) : 0;
    c.passes = pick(1, 3);
    c.channel_positions = pick(1, 20);
    c.output_passes = pick(1, 2);
    c.depthwise = pick(0, 5) == 0;
    for (int p = 0; p < 16; ++p)
        if (pick(0, 2) != 0) c.processors.push_back({p / 16, p % 16, p, pick(0, 4) != 0});
    if (c.processors.empty()) c.processors.push_back({0, 0, 0, true});
    // Mask addresses: from anywhere in memory; the end sometimes before the
    // last kernel (those weigh 0), sometimes past memory (a warning).
    const uint32_t kernels = c.channel_positions * c.output_passes * c.passes;
    c.mask_start = pick(0, kernel_words * 8 - 1) / l.bits * l.bits;
    const uint32_t span = kernels * l.bits;
    c.mask_end = c.mask_start + (pick(0, 3) == 0 ? pick(0, span) : span - 1);
    if (pick(0, 3) == 0) c.mask_start = c.mask_end + 1;  // empty range
    return c;
}

void check_same(const LayerWeights& a, const std::vector<EngineWarning>& wa, const LayerWeights& b,
                const std::vector<EngineWarning>& wb) {
    REQUIRE(a.outputs == b.outputs);
    REQUIRE(a.processors == b.processors);
    REQUIRE(a.processor_index == b.processor_index);
    REQUIRE(a.values == b.values);
    REQUIRE(wa.size() == wb.size());
    for (std::size_t k = 0; k < wa.size(); ++k) {
        CHECK(wa[k].message == wb[k].message);
        CHECK(wa[k].kind == wb[k].kind);
        CHECK(wa[k].quadrant == wb[k].quadrant);
    }
}

// Random bytes in the first quadrant's kernel memories, one word in eight never written.
void fill_random_kernels(AcceleratorState& state, std::mt19937& rng) {
    for (int p = 0; p < 16; ++p)
        for (uint32_t w = 0; w < state.cfg.kernel_mem.words; ++w) {
            for (uint8_t& byte : state.kernel[p][w]) byte = static_cast<uint8_t>(rng());
            state.kernel_written[p][w] = rng() % 8 != 0;
        }
}

// Frees a buffer of marker bytes the size of the next allocation, so the
// allocator likely hands that memory to it: the packed quads are not zeroed
// before decoding, and a place left unwritten then shows (ASan fills fresh
// memory with its own marker).
void leave_markers_on_heap(std::size_t bytes) {
    std::vector<uint8_t> marker(bytes, 0x5a);
    asm volatile("" : : "r"(marker.data()) : "memory");
}

}  // namespace

TEST_CASE("weights decoded a run at a time equal the tap-by-tap reader", "[engine][kernel_fetch]") {
    AcceleratorState state{device()};
    const uint32_t words = state.cfg.kernel_mem.words;
    std::mt19937 rng(26);
    fill_random_kernels(state, rng);
    // Processor 5 was never loaded: the warning names its first word.
    std::fill(state.kernel_written[5].begin(), state.kernel_written[5].end(), 0);
    const Layout layouts[] = {{8, arith::WeightFormat::Bits8, 9}, {8, arith::WeightFormat::Bits8, 1},
                              {4, arith::WeightFormat::Bits4, 1}, {2, arith::WeightFormat::Bits2, 1},
                              {1, arith::WeightFormat::Bits1, 1}, {8, arith::WeightFormat::Bits8, 5},
                              {2, arith::WeightFormat::Bits2, 3}, {4, arith::WeightFormat::Bits4, 9}};
    int warned = 0, truncated = 0;
    for (const Layout& l : layouts) {
        for (int n = 0; n < 60; ++n) {
            const LayerConfig c = random_layer(rng, l, words);
            LayerConfig tap_by_tap = c;
            tap_by_tap.calcx4 = true;
            tap_by_tap.calcx4_block = 0;
            std::vector<EngineWarning> wa, wb;
            const LayerWeights a = fetch_weights(state, c, wa);
            const LayerWeights b = fetch_weights(state, tap_by_tap, wb);
            INFO("bits " << l.bits << " slot " << l.slot << " mask " << c.mask_start << ".." << c.mask_end
                         << " one-d start " << c.oned_start_byte);
            check_same(a, wa, b, wb);
            warned += !wa.empty();
            truncated += c.mask_end < c.mask_start + c.channel_positions * c.output_passes * c.passes * l.bits - 1;
        }
    }
    // The draws reached the warnings and the truncated ranges.
    CHECK(warned > 20);
    CHECK(truncated > 20);
}

// The weights packed straight from kernel memory (fetch_packed_weights, the
// engine's way) against packing the dense weights (pack_weights of
// fetch_weights, each a plain loop): same values in the same places, same
// shape and warnings, for the run decoder, the tap-by-tap reader and the
// layers that go through the dense weights (bypass, depth-wise).
TEST_CASE("weights packed straight from kernel memory equal packing the dense weights", "[engine][kernel_fetch]") {
    AcceleratorState state{device()};
    const uint32_t words = state.cfg.kernel_mem.words;
    std::mt19937 rng(2026);
    fill_random_kernels(state, rng);
    const Layout layouts[] = {{8, arith::WeightFormat::Bits8, 9}, {8, arith::WeightFormat::Bits8, 1},
                              {8, arith::WeightFormat::Bits8, 3}, {4, arith::WeightFormat::Bits4, 1},
                              {2, arith::WeightFormat::Bits2, 3}, {1, arith::WeightFormat::Bits1, 9}};
    int whole_blocks = 0;
    for (const Layout& l : layouts) {
        for (int n = 0; n < 60; ++n) {
            LayerConfig c = random_layer(rng, l, words);
            c.bypass = n % 10 == 9;
            for (const bool tap_by_tap : {false, true})
                for (const bool quads : {false, true}) {
                    LayerConfig layer = c;
                    layer.calcx4 = tap_by_tap;  // block size 0: every kernel at its plain place, read tap by tap
                    layer.calcx4_block = 0;
                    std::vector<EngineWarning> wa, wb;
                    const LayerWeights dense = fetch_weights(state, layer, wa);
                    const PackedWeights want = pack_weights(dense, layer.kernel_rows, layer.kernel_cols, quads);
                    LayerWeights shape;
                    leave_markers_on_heap(want.bytes.size());
                    const PackedWeights got = fetch_packed_weights(state, layer, shape, wb, quads);
                    INFO("bits " << l.bits << " slot " << l.slot << " mask " << c.mask_start << ".." << c.mask_end
                                 << " passes " << c.passes << (c.depthwise ? " depth-wise" : "")
                                 << (c.bypass ? " bypass" : "") << (tap_by_tap ? " tap by tap" : "")
                                 << (quads ? " quads" : " pairs"));
                    REQUIRE(got.blocks == want.blocks);
                    REQUIRE(got.row_pairs == want.row_pairs);
                    REQUIRE(got.values == want.values);
                    REQUIRE(got.bytes == want.bytes);
                    REQUIRE(shape.outputs == dense.outputs);
                    REQUIRE(shape.processors == dense.processors);
                    REQUIRE(shape.passes == dense.passes);
                    REQUIRE(shape.slots == dense.slots);
                    LayerWeights no_values = dense;
                    no_values.values = shape.values;
                    check_same(shape, wb, no_values, wa);
                    whole_blocks += dense.outputs >= kBlockOutputs;
                }
        }
    }
    CHECK(whole_blocks > 50);  // the draws reached the block-at-a-time loop
}

namespace {

// A broadcast depth-wise 1x1 layer of 8-bit weights on the processors `globals`
// (16 per quadrant), two input passes, XPCH_MAX spanning `positions`.
LayerConfig depthwise_layer(const std::vector<int>& globals, uint32_t positions) {
    LayerConfig c;
    c.layer = 1;
    c.lead_quadrant = globals.front() / 16;
    c.weight_bits = 8;
    c.weight_format = arith::WeightFormat::Bits8;
    c.kernel_slot_bytes = 1;
    c.depthwise = true;
    c.broadcast = true;
    c.convolution = true;
    c.passes = 2;
    c.channel_positions = positions;
    c.mask_start = 0;
    c.mask_end = (c.passes - 1) * c.weight_bits;
    for (int g : globals) c.processors.push_back({g / 16, g % 16, g, true});
    return c;
}

bool warned_of(const std::vector<EngineWarning>& warnings, const std::string& kind) {
    for (const EngineWarning& w : warnings)
        if (w.kind == kind) return true;
    return false;
}

}  // namespace

// The generator sets BROADCAST when a depth-wise layer's output processors are
// its input processors, points the write pointer at the first processor's word
// group and spans XPCH_MAX to the last processor (izer backend max7800x.py):
// each result stays at its processor's own byte position. With the processor
// map 0x000f000f000f000f (vectors-rtl rtl87p-fifostream-depthwise-quantpool)
// quadrant 1's channels belong at positions 16..19, in quadrant 1's memory,
// not at their ranks 4..7 in quadrant 0's.
TEST_CASE("broadcast depth-wise outputs stay at their processors' positions", "[engine][kernel_fetch]") {
    AcceleratorState state{device()};
    std::vector<EngineWarning> warnings;
    // Processors 4, 5 of quadrant 0 and 4, 5, 6 of quadrant 1: positions from 4.
    const LayerConfig gaps = depthwise_layer({4, 5, 20, 21, 22}, 19);
    const LayerWeights w = fetch_weights(state, gaps, warnings);
    REQUIRE(w.outputs == 10);
    const uint32_t positions[] = {0, 1, 16, 17, 18};
    for (uint32_t j = 0; j < 2; ++j)
        for (uint32_t i = 0; i < 5; ++i) {
            INFO("pass " << j << " processor " << i);
            CHECK(w.slot(j * 5 + i) == j * 19 + positions[i]);
        }
    CHECK_FALSE(warned_of(warnings, "depthwise_beyond_span"));

    SECTION("without broadcast the outputs are packed at their ranks") {
        LayerConfig packed = gaps;
        packed.broadcast = false;
        const LayerWeights p = fetch_weights(state, packed, warnings);
        for (uint32_t o = 0; o < p.outputs; ++o) CHECK(p.slot(o) == o);
    }
    SECTION("contiguous processors from a word boundary sit at their ranks") {
        const LayerWeights p = fetch_weights(state, depthwise_layer({8, 9, 10, 11, 12, 13}, 6), warnings);
        CHECK(p.slots.empty());
        for (uint32_t o = 0; o < p.outputs; ++o) CHECK(p.slot(o) == o);
    }
    SECTION("a processor beyond XPCH_MAX's span is warned about") {
        fetch_weights(state, depthwise_layer({4, 5, 20, 21, 22}, 18), warnings);
        CHECK(warned_of(warnings, "depthwise_beyond_span"));
    }
}
