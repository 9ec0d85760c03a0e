#include "model/stream/stream_session.h"

#include <spdlog/spdlog.h>

#include "model/registers/register_fields.h"
#include "model/stream/ring_shadow.h"

namespace ai8x {

StreamSession::StreamSession(AcceleratorState& state, const AccelTiming& timing, StreamScheduler::Policy policy)
    : state_(state), timing_(timing), plan_(make_stream_plan(state)) {
    for (const StreamLayer& s : plan_.chain)
        costs_.emplace_back(layer_walk(s.cfg, timing_, layer_timeslots(state_, s.cfg)), timing_);
    scheduler_ = std::make_unique<StreamScheduler>(
        plan_,
        [this](std::size_t index, uint32_t row, uint32_t col) -> uint64_t {
            const ScanCost& c = costs_[index];
            const int64_t cycles = c.position(row, col) + (row == 0 && col == 0 ? c.setup() : 0);
            return cycles > 0 ? static_cast<uint64_t>(cycles) : 0;
        },
        policy);
    frame_.assign(state_.cfg.fifo_count, {});
}

void StreamSession::deliver(unsigned fifo, uint32_t word) {
    if (fifo < frame_.size()) frame_[fifo].push_back(word);
}

void StreamSession::run_with_frame(const std::vector<std::vector<uint32_t>>& words) {
    uint64_t available = ~uint64_t{0};
    for (unsigned i = 0; i < frame_.size(); ++i)
        if (plan_.fifo_enables >> i & 1)
            available = std::min<uint64_t>(available, i < words.size() ? words[i].size() : 0);
    if (available == ~uint64_t{0}) available = 0;
    uint64_t delivered = 0;
    for (;;) {
        const StreamStep st = step(available);
        for (; delivered < consumed(); ++delivered)
            for (unsigned i = 0; i < frame_.size(); ++i)
                if (plan_.fifo_enables >> i & 1) deliver(i, words[i][delivered]);
        if (st.kind != StreamStep::Ran) break;  // Done, or a frame shorter than REG_IFRM
    }
}

EngineResult StreamSession::finish(bool capture_layers) {
    EngineResult result;
    result.warnings = plan_.warnings;
    if (plan_.quadrants.empty() || plan_.last_layer < plan_.first_layer ||
        static_cast<uint32_t>(plan_.last_layer) >= state_.cfg.max_layers) {
        result.warnings.push_back(
            {plan_.master, -1, "REG_LCNT_MAX", "no valid layer range; nothing computed", "layer_range", 1});
        return result;
    }
    LayerEngine engine(state_);
    engine.set_capture_target(capture_layers ? &result.outputs : nullptr);
    const DeviceConfig& cfg = state_.cfg;
    const uint32_t ipq = cfg.data_sram.instances_per_quadrant;
    const RegField rptr_base = register_fields(cfg).LREG_RPTR_BASE.RPTR_BASE;

    const auto frame_instance_words = [&](auto&& put) {
        // FIFO i feeds instance 0 of quadrant i at layer 0's read pointer of that quadrant.
        for (unsigned i = 0; i < frame_.size() && i < cfg.quadrants; ++i) {
            if (!(plan_.fifo_enables >> i & 1)) continue;
            const uint32_t rptr =
                cfg.data_sram.pointer_word(rptr_base.get(state_.quadrant[i].lreg[LREG_RPTR_BASE][plan_.first_layer]));
            for (uint64_t k = 0; k < frame_[i].size(); ++k) put(i * ipq, rptr, k, frame_[i][k]);
        }
    };

    int next = plan_.first_layer;
    if (plan_.chain.empty()) {
        if (plan_.fifo_mode)  // non-streaming FIFO mode: the whole frame lands unwrapped
            frame_instance_words([&](uint32_t inst, uint32_t rptr, uint64_t k, uint32_t w) {
                if (rptr + k >= state_.data_sram[inst].size()) return;
                state_.data_sram[inst][rptr + k] = w;
                state_.data_written[inst][rptr + k] = 1;  // the FIFO wrote it (unwritten-read warnings)
            });
    } else {
        const std::vector<std::vector<uint32_t>> before = state_.data_sram.snapshot();
        const auto& progress = scheduler_->read_progress();
        std::unique_ptr<RingShadow> input;
        if (plan_.fifo_mode) {
            const StreamLayer& s0 = plan_.chain.front();
            input = std::make_unique<RingShadow>(state_, s0.ring_offset, s0.fmax, 1);
            // Every quadrant's layer-0 pointer should equal the lead quadrant's (the plan
            // warns otherwise); a differing one is placed relative to the lead's ring.
            frame_instance_words([&](uint32_t inst, uint32_t rptr, uint64_t k, uint32_t w) {
                if (uint32_t* slot = input->word(inst, rptr + k)) *slot = w;
            });
        } else {
            result.warnings.push_back({plan_.master, plan_.first_layer, "REG_CTL",
                                       "streaming without FIFO input: layer 0 reads data memory as it is", "", 1});
        }
        for (std::size_t k = 0; k < plan_.chain.size(); ++k) {
            const StreamLayer& s = plan_.chain[k];
            std::unique_ptr<RingSource> source;
            if (input) source = std::make_unique<RingSource>(*input, progress[k], s.ring_offset, s.fmax, before);
            std::unique_ptr<RingShadow> output;
            if (k + 1 < plan_.chain.size())
                output = std::make_unique<RingShadow>(state_, cfg.data_sram.pointer_word(s.cfg.write_base),
                                                      plan_.chain[k + 1].fmax, s.cfg.write_stride);
            LayerHooks hooks{source.get(), output.get()};
            LayerStats stats = engine.run_layer(s.layer(), result.warnings, hooks);
            stats.streaming = true;
            result.layers.push_back(stats);
            if (input) input->commit();
            input = std::move(output);
        }
        next = plan_.chain.back().layer() + 1;
    }
    for (int l = next; l <= plan_.last_layer; ++l) result.layers.push_back(engine.run_layer(l, result.warnings));
    result.hazards = hazards();
    merge_warnings(result.warnings);  // as LayerEngine::run() does: one line per kind, layer and register
    for (const auto& w : result.warnings) {
        if (w.count > 1)
            spdlog::warn("cnn: quadrant {} layer {} {}: {} ({} times)", w.quadrant, w.layer, w.reg, w.message, w.count);
        else
            spdlog::warn("cnn: quadrant {} layer {} {}: {}", w.quadrant, w.layer, w.reg, w.message);
    }
    for (const auto& h : hazards())
        spdlog::warn("cnn: streaming hazard {} in layer {} at 0x{:08x}, cycle {} ({} times): {}", h.kind, h.layer,
                     h.address, h.cycle, h.count, h.message);
    return result;
}

InferenceCycles StreamSession::timing() const {
    InferenceCycles t;
    t = inference_cycles(TimingModel(timing_), state_, plan_sequence(state_));
    // Chain positions cost what they cost in a non-streaming layer (§7), so the
    // per-layer cycles already hold the chain's work; stalls come on top.
    t.stall_cycles = scheduler_->stall_cycles();
    for (const auto& r : scheduler_->layers()) t.stream_spans.push_back({r.layer, r.first_cycle, r.last_cycle});
    return t;
}

uint64_t StreamSession::total_cycles() const { return timing().total(); }

}  // namespace ai8x
