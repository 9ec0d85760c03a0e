// Activity counters against what each layer's shape implies. For every golden
// vector without FIFO or streaming, the engine runs on the vector's registers
// and memories; for each layer the generator's log prints (input tensors,
// kernels, output tensor), the counters summed over the module tree must give
//   * data SRAM writes  = output channels x output rows x output columns,
//   * TRAM writes       = input channels x pooled rows x pooled columns
//                         (each pooled input value enters one processor's TRAM),
//   * MACs              = output values x input values per output x kernel taps
//                         (convolutions: out C x out H x out W x in C x kH x kW;
//                          a flattened linear layer: out x C*H*W),
// and the per-instance numbers must add up to the layer's own totals. The
// expected numbers come from the log's tensors, not from the engine.
//
// with every channel count taken as the channel positions the hardware
// computes: the generator spreads more channels than processors over passes
// of equal width rounded up to whole data-memory groups (izer unload.py
// out_expand, out_expand_thresh; 100 channels are 2 passes of 52), fewer
// channels take one processor each. The counts are then exact. A dilated 1-D
// convolution runs as a 2-D convolution on folded data whose shape the log
// does not print: no MAC count follows, and its memory counts must lie between
// the network's numbers and twice them.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <numeric>
#include <sstream>

#include "model/engine/layer_engine.h"
#include "testbench/reference/generator_log.h"
#include "testbench/unit/layer_counts.h"
#include "testbench/unit/model/vector_loader.h"
#include "testbench/unit/test_support.h"

using namespace ai8x;
namespace fs = std::filesystem;
namespace ref = ai8x::reference;

namespace {

using test::kVectors;

struct LayerSums {
    uint64_t macs = 0, sram_reads = 0, sram_writes = 0, tram_writes = 0, tram_reads = 0, kernel_reads = 0;
};

LayerSums sum_layer(const AcceleratorState& s, int layer) {
    const auto l = static_cast<std::size_t>(layer);
    LayerSums t;
    for (const auto& p : s.processor_activity) t.macs += p.macs[l];
    for (const auto& m : s.data_sram_arrays) {
        t.sram_reads += m.activity.by_layer[l].reads;
        t.sram_writes += m.activity.by_layer[l].writes;
    }
    for (const auto& m : s.tram_arrays) {
        t.tram_writes += m.activity.by_layer[l].writes;
        t.tram_reads += m.activity.by_layer[l].reads;
    }
    for (const auto& m : s.kernel_arrays) t.kernel_reads += m.activity.by_layer[l].reads;
    return t;
}

// Input values after pooling (what enters the TRAMs).
uint64_t implied_tram_writes(const ref::LogLayerCase& c) {
    const ref::LayerParams& p = c.params;
    const ref::Tensor& in = c.inputs.front();
    const auto pooled = [&](int size, int window, int stride) { return (size - window) / stride + 1; };
    const uint64_t rows = p.pool == ref::PoolType::None && p.pool_stride[0] == 1
                              ? in.height
                              : pooled(in.height, p.pool_size[0], p.pool_stride[0]);
    const uint64_t cols = p.pool == ref::PoolType::None && p.pool_stride[1] == 1
                              ? in.width
                              : pooled(in.width, p.pool_size[1], p.pool_stride[1]);
    return uint64_t(in.channels) * rows * cols;
}

}  // namespace

TEST_CASE("activity counters add up to what every logged layer's shape implies", "[activity]") {
    const DeviceConfig cfg = load_device_config(default_device_config_path());
    int layers_checked = 0, mac_layers_checked = 0, vectors = 0, exact_layers = 0;
    for (const std::string& name : test::plain_vector_names(kVectors)) {
        const fs::path dir = fs::path(kVectors) / name;
        if (!fs::exists(dir / "log.txt.gz")) continue;
        std::istringstream text(test::read_gzip(dir / "log.txt.gz"));
        const ref::GeneratorLog log = ref::parse_generator_log(text, (dir / "log.txt.gz").string());

        AcceleratorState state(cfg);
        test::apply_vector(test::load_vector(dir.string()), state);
        const EngineResult result = LayerEngine(state).run();
        std::map<int, const LayerStats*> stats;
        for (const auto& l : result.layers) stats[l.layer] = &l;
        ++vectors;

        for (const ref::LogLayerCase& c : log.layers) {
            if (!stats.count(c.layer) || c.inputs.empty()) continue;
            // Multi-operand and flattened layers print their inputs in other shapes; the
            // engine-side sums below still have to agree for them.
            const LayerSums got = sum_layer(state, c.layer);
            const LayerStats& st = *stats[c.layer];
            INFO(name << " layer " << c.layer << ": " << ref::describe(c.params));
            // Per-instance counters against the layer's own totals.
            CHECK(got.macs == st.macs);
            CHECK(got.sram_reads == st.input_reads);
            // Against the shape, in the channel positions the hardware computes.
            const uint64_t out_c = c.expected.channels, in_c = c.inputs.front().channels;
            const uint64_t out_hw = test::computed_channels(out_c, cfg), in_hw = test::computed_channels(in_c, cfg);
            const bool exact = c.params.dilation[0] == 1 && c.params.dilation[1] == 1;
            const auto agrees = [&](uint64_t counted, uint64_t network, uint64_t hardware) {
                return exact ? counted == hardware : network <= counted && counted <= 2 * network;
            };
            const uint64_t outputs = uint64_t(c.expected.height) * c.expected.width;
            CHECK(agrees(got.sram_writes, out_c * outputs, out_hw * outputs));
            if (c.inputs.size() == 1 && !c.params.flatten) {
                const uint64_t tram = implied_tram_writes(c);
                CHECK(agrees(got.tram_writes, tram, tram / in_c * in_hw));
            }
            if (test::implied_macs(c) > 0) {
                CHECK(got.macs == test::hardware_macs(c, cfg));
                // One kernel word per MAC group of kernel taps (a flattened layer's kernel is 1x1).
                CHECK(got.kernel_reads * (c.params.op == ref::Op::Conv1d ? c.params.kernel[0]
                                                                         : c.params.kernel[0] * c.params.kernel[1]) ==
                      got.macs);
                ++mac_layers_checked;
            }
            ++layers_checked;
            if (exact) ++exact_layers;
        }
        // Layers that did not run have no activity.
        for (uint32_t l = 0; l < cfg.max_layers; ++l)
            if (!stats.count(int(l))) CHECK(sum_layer(state, int(l)).macs == 0);
    }
    std::printf("activity: %d vectors, %d logged layers checked (%d exactly), %d with a MAC count from their shape\n",
                vectors, layers_checked, exact_layers, mac_layers_checked);
    CHECK(vectors >= 100);
    CHECK(layers_checked >= 200);
    CHECK(mac_layers_checked >= 150);
    CHECK(exact_layers >= 200);
}

TEST_CASE("bus accesses are counted per memory instance, apart from the layers' accesses", "[activity]") {
    const DeviceConfig cfg = load_device_config(default_device_config_path());
    AcceleratorState state(cfg);
    test::apply_vector(test::load_vector(kVectors + "/demo-mnist"), state);
    uint64_t before = 0;
    for (const auto& m : state.data_sram_arrays) before += m.activity.layer_total().writes;
    CHECK(before == 0);  // loading is not a layer's work
    LayerEngine(state).run();
    uint64_t after = 0;
    for (const auto& m : state.data_sram_arrays) after += m.activity.layer_total().writes;
    CHECK(after > 0);
    // Every kind of per-layer counter the layers set goes with the clear (it
    // clears the layers the engine noted, not all of them).
    const auto all_counts = [&state] {
        uint64_t sum = 0;
        for (uint32_t l = 0; l < state.cfg.max_layers; ++l) {
            const LayerSums t = sum_layer(state, int(l));
            sum += t.macs + t.sram_reads + t.sram_writes + t.tram_reads + t.tram_writes + t.kernel_reads;
        }
        for (const auto& m : state.bias_arrays) sum += m.activity.layer_total().reads;
        return sum;
    };
    CHECK(all_counts() > after);
    state.clear_layer_activity();
    CHECK(all_counts() == 0);
}

TEST_CASE("clearing the layer activity clears the noted layers, a reset every layer", "[activity]") {
    const DeviceConfig cfg = load_device_config(default_device_config_path());
    AcceleratorState state(cfg);
    REQUIRE(cfg.max_layers > 6);
    state.note_layer_activity(5);
    state.note_layer_activity(5);   // noted once
    state.note_layer_activity(-1);  // outside the register file: ignored
    state.note_layer_activity(int(cfg.max_layers));
    state.quadrant_activity[1].busy_cycles[5] = 7;
    state.processor_activity[3].macs[5] = 9;
    state.tram_arrays[2].activity.by_layer[5].writes = 4;
    state.clear_layer_activity();
    CHECK(state.quadrant_activity[1].busy_cycles[5] == 0);
    CHECK(state.processor_activity[3].macs[5] == 0);
    CHECK(state.tram_arrays[2].activity.by_layer[5].writes == 0);
    // A layer set without being noted breaks the writers' contract; reset() still clears it.
    state.quadrant_activity[0].busy_cycles[6] = 3;
    state.kernel_arrays[0].activity.by_layer[6].reads = 2;
    state.reset();
    CHECK(state.quadrant_activity[0].busy_cycles[6] == 0);
    CHECK(state.kernel_arrays[0].activity.by_layer[6].reads == 0);
}
