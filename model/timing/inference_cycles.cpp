#include "model/timing/inference_cycles.h"

#include <spdlog/spdlog.h>

#include "model/engine/layer_config.h"

namespace ai8x {

uint64_t InferenceCycles::total() const {
    int64_t sum = static_cast<int64_t>(startup + stall_cycles);
    for (const TimedLayer& l : layers) sum += l.cycles.total();
    return sum > 0 ? static_cast<uint64_t>(sum) : 0;
}

InferenceCycles inference_cycles(const TimingModel& model, const AcceleratorState& state, const SequencePlan& plan) {
    InferenceCycles result;
    result.startup = model.startup_cycles();
    for (int l : plan.layers()) {
        std::vector<EngineWarning> warnings;  // the layer engine reports the same problems
        const auto layer = decode_layer(state, l, plan.enabled_quadrants, warnings);
        if (!layer) continue;
        const LayerCycles cycles = model.layer_breakdown(*layer, layer_timeslots(state, *layer));
        // describe() builds a string: only when the line is printed.
        if (spdlog::should_log(spdlog::level::debug))
            spdlog::debug("timing: layer {}: {} cycles ({})", l, cycles.total(), describe(cycles));
        result.layers.push_back({l, cycles, layer->passes});
    }
    return result;
}

}  // namespace ai8x
