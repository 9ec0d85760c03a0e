#include "model/timing/inference_cycles.h"

#include <spdlog/spdlog.h>

#include "model/engine/layer_config.h"

namespace ai8x {

namespace {
constexpr uint32_t kLastLayerMask = 0x1f;  // REG_LCNT_MAX [4:0]
}  // namespace

uint64_t InferenceCycles::total() const {
    int64_t sum = static_cast<int64_t>(startup + stall_cycles);
    for (const TimedLayer& l : layers) sum += l.cycles.total();
    return sum > 0 ? static_cast<uint64_t>(sum) : 0;
}

InferenceCycles inference_cycles(const TimingModel& model, const AcceleratorState& state,
                                 const std::vector<int>& quadrants, int master) {
    InferenceCycles result;
    result.startup = model.startup_cycles();
    if (master < 0 || master >= static_cast<int>(state.quadrant.size())) return result;
    const uint32_t last = state.quadrant[master].lcnt_max & kLastLayerMask;
    for (uint32_t l = 0; l <= last && l < state.cfg.max_layers; ++l) {
        std::vector<EngineWarning> warnings;  // the layer engine reports the same problems
        const auto layer = decode_layer(state, static_cast<int>(l), quadrants, warnings);
        if (!layer) continue;
        const LayerCycles cycles = model.layer_breakdown(*layer, layer_timeslots(state, *layer));
        spdlog::debug("timing: layer {}: {} cycles ({})", l, cycles.total(), describe(cycles));
        result.layers.push_back({static_cast<int>(l), cycles});
    }
    return result;
}

}  // namespace ai8x
