#include "model/engine/layer_engine.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "model/engine/input_fetch.h"
#include "model/engine/kernel_fetch.h"
#include "model/engine/layer_compute.h"
#include "model/engine/layer_config.h"
#include "model/engine/output_writer.h"

namespace ai8x {

namespace {

constexpr uint32_t kCtlEnable = 1u << 0;     // REG_CTL: quadrant runs
constexpr uint32_t kLayerFieldMask = 0x1f;   // REG_LCNT_MAX [4:0] last layer, [12:8] first layer
constexpr unsigned kFirstLayerShift = 8;
constexpr unsigned kMasterShift = 9;         // REG_CTL [10:9] master quadrant
constexpr uint32_t kMasterMask = 3;

std::vector<int> enabled_quadrants(const AcceleratorState& state) {
    std::vector<int> q;
    for (std::size_t i = 0; i < state.quadrant.size(); ++i)
        if (state.quadrant[i].ctl & kCtlEnable) q.push_back(static_cast<int>(i));
    return q;
}

// Reads the layer's output from the places compute_convolution wrote it:
// channel o sits at position o % channel_positions of output pass o / channel_positions.
LayerOutput read_back(const LayerConfig& cfg, uint32_t outputs, const LayerStats& stats, OutputWriter& writer) {
    LayerOutput out;
    out.layer = cfg.layer;
    out.channels = outputs;
    out.rows = stats.out_rows;
    out.cols = stats.out_cols;
    const uint64_t pixels = uint64_t{out.rows} * out.cols;
    out.values.reserve(pixels * outputs);
    for (uint32_t o = 0; o < outputs; ++o) {
        const uint32_t t = o % cfg.channel_positions;
        const uint64_t pass_offset = uint64_t{o / cfg.channel_positions} * cfg.write_pass_offset;
        for (uint64_t n = 0; n < pixels; ++n) {
            const uint64_t offset = n * cfg.write_stride + pass_offset;
            int64_t v = 0;
            if (cfg.wide_output) {
                int32_t w = 0;
                if (writer.read32(cfg.lead_quadrant, cfg.write_base, t, offset, w)) v = w;
            } else {
                int8_t b = 0;
                if (writer.read8(cfg.lead_quadrant, cfg.write_base, t, offset, b)) v = b;
            }
            out.values.push_back(v);
        }
    }
    return out;
}

// Passthrough layers follow compute_passthrough: processor i
// (in enabled order) writes at its rank within its quadrant; pass j of pixel n
// lands at word (n * passes + j) * stride. Channel number = j * processors + i.
LayerOutput read_back_passthrough(const LayerConfig& cfg, uint32_t passes, const LayerStats& stats,
                                  OutputWriter& writer) {
    LayerOutput out;
    out.layer = cfg.layer;
    const uint32_t procs = static_cast<uint32_t>(cfg.processors.size());
    out.channels = procs * passes;
    out.rows = stats.out_rows;
    out.cols = stats.out_cols;
    const uint64_t pixels = uint64_t{out.rows} * out.cols;
    out.values.assign(pixels * out.channels, 0);
    std::vector<uint32_t> rank(cfg.quadrant_write_base.size(), 0);
    for (uint32_t i = 0; i < procs; ++i) {
        const LayerProcessor& p = cfg.processors[i];
        const uint32_t t = rank[p.quadrant]++;
        const uint32_t base = cfg.quadrant_write_base[p.quadrant];
        for (uint32_t j = 0; j < passes; ++j) {
            int64_t* dst = &out.values[(uint64_t{j} * procs + i) * pixels];
            for (uint64_t n = 0; n < pixels; ++n) {
                const uint64_t offset = (n * passes + j) * cfg.write_stride;
                if (cfg.wide_output) {
                    int32_t w = 0;
                    if (writer.read32(p.quadrant, base, t, offset * 4, w)) dst[n] = w;
                } else {
                    int8_t b = 0;
                    if (writer.read8(p.quadrant, base, t, offset, b)) dst[n] = b;
                }
            }
        }
    }
    return out;
}

}  // namespace

void merge_warnings(std::vector<EngineWarning>& warnings) {
    std::vector<EngineWarning> merged;
    for (EngineWarning& w : warnings) {
        auto same = std::find_if(merged.begin(), merged.end(), [&](const EngineWarning& m) {
            return !w.kind.empty() && m.kind == w.kind && m.layer == w.layer && m.reg == w.reg;
        });
        if (same != merged.end()) same->count += w.count;
        else merged.push_back(std::move(w));
    }
    warnings = std::move(merged);
}

LayerEngine::LayerEngine(AcceleratorState& state) : state_(state) {}

EngineResult LayerEngine::run() {
    EngineResult result;
    const std::vector<int> quadrants = enabled_quadrants(state_);
    if (quadrants.empty()) {
        result.warnings.push_back({-1, -1, "REG_CTL", "no quadrant enabled; nothing computed"});
        return result;
    }
    // REG_CTL [10:9] names the master quadrant whose layer count rules.
    int master = static_cast<int>((state_.quadrant[quadrants.front()].ctl >> kMasterShift) & kMasterMask);
    if (std::find(quadrants.begin(), quadrants.end(), master) == quadrants.end()) master = quadrants.front();
    const uint32_t lcnt = state_.quadrant[master].lcnt_max;
    const uint32_t last = lcnt & kLayerFieldMask;
    const uint32_t first = (lcnt >> kFirstLayerShift) & kLayerFieldMask;
    if (last >= state_.cfg.max_layers || first > last) {
        result.warnings.push_back({master, -1, "REG_LCNT_MAX",
                                   "layer range " + std::to_string(first) + ".." + std::to_string(last) +
                                       " invalid; nothing computed"});
        return result;
    }
    captured_ = capture_ ? &result.outputs : nullptr;
    for (uint32_t layer = first; layer <= last; ++layer)
        result.layers.push_back(run_layer(static_cast<int>(layer), result.warnings));
    merge_warnings(result.warnings);
    for (const auto& w : result.warnings) {
        if (w.count > 1)
            spdlog::warn("cnn: quadrant {} layer {} {}: {} ({} times)", w.quadrant, w.layer, w.reg, w.message, w.count);
        else
            spdlog::warn("cnn: quadrant {} layer {} {}: {}", w.quadrant, w.layer, w.reg, w.message);
    }
    return result;
}

LayerStats LayerEngine::run_layer(int layer, std::vector<EngineWarning>& warnings, const LayerHooks& hooks) {
    LayerStats stats;
    stats.layer = layer;
    if (layer < 0 || static_cast<uint32_t>(layer) >= state_.cfg.max_layers) {
        warnings.push_back({-1, layer, "REG_LCNT_MAX", "layer index outside the register file"});
        return stats;
    }
    if (state_.cfg.layer_register_count <= LREG_LCTL2) {
        warnings.push_back({-1, layer, "LREG_LCTL2",
                            "device description has too few per-layer registers for this engine"});
        return stats;
    }
    const std::vector<int> quadrants = enabled_quadrants(state_);
    std::optional<LayerConfig> cfg = decode_layer(state_, layer, quadrants, warnings);
    if (!cfg) return stats;

    stats.in_rows = cfg->programmed_rows;
    stats.in_cols = cfg->programmed_cols;
    stats.passes = cfg->passes;
    const auto& lreg = state_.quadrant[cfg->lead_quadrant].lreg;
    // A layer streams when streaming mode is on and it has an input ring
    // (docs/streaming.md §2.7); LREG_STREAM1 alone is also FIFO mode's start count.
    constexpr uint32_t kCtlStreaming = 1u << 14;
    stats.streaming = (state_.quadrant[cfg->lead_quadrant].ctl & kCtlStreaming) && lreg[LREG_FMAX][layer] != 0;
    if (stats.streaming && !hooks.input)
        warnings.push_back({cfg->lead_quadrant, layer, "LREG_STREAM1",
                            "streaming layer computed as if all input were in memory"});

    const InputPlanes input = fetch_inputs(state_, *cfg, warnings, hooks.input);
    stats.input_reads = input.word_reads;
    OutputWriter writer(state_, *cfg, warnings);
    writer.set_sink(hooks.output);
    if (cfg->convolution) {
        const LayerWeights weights = fetch_weights(state_, *cfg, warnings);
        compute_convolution(state_, *cfg, input, weights, writer, stats, warnings);
        if (captured_) captured_->push_back(read_back(*cfg, weights.outputs, stats, writer));
    } else {
        compute_passthrough(*cfg, input, writer, stats);
        if (captured_) captured_->push_back(read_back_passthrough(*cfg, input.passes, stats, writer));
    }
    return stats;
}

}  // namespace ai8x
