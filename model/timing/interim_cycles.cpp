#include "model/timing/interim_cycles.h"

namespace ai8x {

namespace {
// Stand-in cost of loading a layer's registers and priming the pipeline.
constexpr uint64_t kLayerStartupCycles = 16;
}  // namespace

uint64_t interim_cycles(const EngineResult& result) {
    uint64_t cycles = 0;
    for (const LayerStats& s : result.layers) {
        const uint64_t positions = uint64_t(s.in_rows) * s.in_cols;
        cycles += kLayerStartupCycles + positions * (s.passes ? s.passes : 1);
    }
    return cycles ? cycles : 1;
}

}  // namespace ai8x
