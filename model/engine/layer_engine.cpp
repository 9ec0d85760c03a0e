#include "model/engine/layer_engine.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <optional>

#include "model/engine/host_profile.h"
#include "model/engine/image_fetch.h"
#include "model/engine/input_fetch.h"
#include "model/engine/kernel_fetch.h"
#include "model/engine/layer_compute.h"
#include "model/engine/layer_config.h"
#include "model/engine/output_writer.h"
#include "model/engine/worker_pool.h"
#include "model/sequencing.h"

namespace ai8x {

namespace {

// Reads the layer's output from the places compute_convolution wrote it:
// channel o sits at position slot % channel_positions of output pass
// slot / channel_positions, its slot being o itself but in a broadcast
// depth-wise layer (LayerWeights::slot).
LayerOutput read_back(const LayerConfig& cfg, const LayerWeights& weights, const LayerStats& stats,
                      OutputWriter& writer) {
    LayerOutput out;
    out.layer = cfg.layer;
    out.channels = weights.outputs;
    out.rows = stats.out_rows;
    out.cols = stats.out_cols;
    const uint64_t pixels = uint64_t{out.rows} * out.cols;
    out.values.reserve(pixels * weights.outputs);
    for (uint32_t o = 0; o < weights.outputs; ++o) {
        const uint32_t slot = weights.slot(o);
        const uint32_t t = slot % cfg.channel_positions;
        const uint64_t pass_offset = uint64_t{slot / cfg.channel_positions} * cfg.write_pass_offset;
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

// The padded input image of convolution layer `cfg`: read straight from
// data memory where image_fetch.h can, else from the processors' planes.
ConvImage fetch_conv_input(const AcceleratorState& state, const LayerConfig& cfg, const LayerHooks& hooks,
                           LayerStats& stats, std::vector<EngineWarning>& warnings) {
    const uint32_t spread = cfg.conv_transpose ? 2 : 1;
    if (reads_image_directly(cfg, hooks.input))
        return fetch_conv_image(state, cfg, spread, warnings, stats.input_reads);
    const InputPlanes planes = fetch_inputs(state, cfg, warnings, hooks.input);
    stats.input_reads = planes.word_reads;
    return make_conv_image(planes, weight_shape(cfg), cfg.pad_rows, cfg.pad_cols, spread);
}

}  // namespace

void merge_warnings(std::vector<EngineWarning>& warnings) {
    std::vector<EngineWarning> merged;
    for (EngineWarning& w : warnings) {
        auto same = std::find_if(merged.begin(), merged.end(), [&](const EngineWarning& m) {
            return !w.kind.empty() && m.kind == w.kind && m.layer == w.layer && m.reg == w.reg;
        });
        if (same != merged.end())
            same->count += w.count;
        else
            merged.push_back(std::move(w));
    }
    warnings = std::move(merged);
}

LayerEngine::LayerEngine(AcceleratorState& state) : state_(state) {}

EngineResult LayerEngine::run() {
    EngineResult result;
    // Which quadrants run and which layers they run: model/sequencing.h.
    const SequencePlan plan = plan_sequence(state_);
    result.warnings = plan.warnings;
    if (!plan.runs()) {
        for (const auto& w : result.warnings) spdlog::warn("cnn: quadrant {} {}: {}", w.quadrant, w.reg, w.message);
        return result;
    }
    captured_ = capture_ ? &result.outputs : nullptr;
    // The layers as the sequencer takes them (snoop units and one-shot mode
    // decide at run time, model/sequencing.h).
    SequenceRun walk(state_, plan);
    // The layers follow each other at once: the pool's worker spins between them.
    const WorkerPool::Hold hold(state_.compute_pool);
    for (int layer = walk.first(); layer >= 0; layer = walk.after(layer)) {
        walk.before(layer);
        result.layers.push_back(run_layer(layer, result.warnings, {}, &plan));
    }
    merge_warnings(result.warnings);
    for (const auto& w : result.warnings) {
        // The quadrant's hierarchical name (cnn.q1) says where; "cnn" when no quadrant applies.
        const bool known = w.quadrant >= 0 && std::size_t(w.quadrant) < state_.names.quadrant.size();
        const std::string where = known ? state_.names.quadrant[std::size_t(w.quadrant)] : std::string("cnn");
        if (w.count > 1)
            spdlog::warn("{}: layer {} {}: {} ({} times)", where, w.layer, w.reg, w.message, w.count);
        else
            spdlog::warn("{}: layer {} {}: {}", where, w.layer, w.reg, w.message);
    }
    return result;
}

LayerStats LayerEngine::run_layer(int layer, std::vector<EngineWarning>& warnings, const LayerHooks& hooks,
                                  const SequencePlan* planned) {
    HostProfile* const profile = state_.host_profile;
    if (!profile) return compute_layer(layer, warnings, hooks, planned);
    const auto shared_calls = [this] { return state_.compute_pool ? state_.compute_pool->shared_calls() : 0; };
    profile->start_layer(layer, shared_calls());
    LayerStats stats = compute_layer(layer, warnings, hooks, planned);
    profile->finish_layer(shared_calls());
    return stats;
}

LayerStats LayerEngine::compute_layer(int layer, std::vector<EngineWarning>& warnings, const LayerHooks& hooks,
                                      const SequencePlan* planned) {
    LayerStats stats;
    stats.layer = layer;
    if (layer < 0 || static_cast<uint32_t>(layer) >= state_.cfg.max_layers) {
        warnings.push_back({-1, layer, "REG_LCNT_MAX", "layer index outside the register file"});
        return stats;
    }
    state_.note_layer_activity(layer);  // the stages below count its activity
    const SequencePlan own = planned ? SequencePlan{} : plan_sequence(state_);
    const SequencePlan& plan = planned ? *planned : own;
    std::optional<LayerConfig> cfg = decode_layer(state_, layer, plan.enabled_quadrants, warnings);
    if (!cfg) return stats;

    stats.in_rows = cfg->programmed_rows;
    stats.in_cols = cfg->programmed_cols;
    stats.passes = cfg->passes;
    // LREG_STREAM1 alone is also FIFO mode's start count; streaming needs an input ring.
    stats.streaming = layer_streams(state_, plan, cfg->lead_quadrant, layer);
    if (stats.streaming && !hooks.input)
        warnings.push_back(
            {cfg->lead_quadrant, layer, "LREG_STREAM1", "streaming layer computed as if all input were in memory"});

    OutputWriter writer(state_, *cfg, warnings);
    writer.set_sink(hooks.output);
    host_lap(state_.host_profile, HostStage::decode);
    if (!cfg->convolution) {
        const InputPlanes input = fetch_inputs(state_, *cfg, warnings, hooks.input);
        stats.input_reads = input.word_reads;
        host_lap(state_.host_profile, HostStage::input);
        compute_passthrough(*cfg, input, writer, stats);
        host_lap(state_.host_profile, HostStage::writes);
        if (captured_) captured_->push_back(read_back_passthrough(*cfg, input.passes, stats, writer));
        return stats;
    }
    // Inputs before weights: the order of their warnings. An image of values
    // in [0, 127] takes the kernel's byte operands, the weights then packed in quads.
    ConvImage image = fetch_conv_input(state_, *cfg, hooks, stats, warnings);
    const bool bytes = make_byte_image(image);
    host_lap(state_.host_profile, HostStage::input);
    LayerWeights weights;
    const PackedWeights packed = fetch_packed_weights(state_, *cfg, weights, warnings, bytes);
    host_lap(state_.host_profile, HostStage::weights);
    compute_convolution(state_, *cfg, image, weights, packed, writer, stats, warnings);
    if (captured_) captured_->push_back(read_back(*cfg, weights, stats, writer));
    return stats;
}

}  // namespace ai8x
