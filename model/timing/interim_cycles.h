// INTERIM timing: a stand-in for the accelerator timing model, which will
// replace this function. It turns the layer engine's per-layer statistics into
// a CNN-clock cycle count with a deliberately simple rule so that the sequencer
// can already delay completion and raise the interrupt at a plausible time.
// Its numbers are NOT calibrated against silicon or the generator's estimate.
#pragma once

#include <cstdint>

#include "model/engine/layer_engine.h"

namespace ai8x {

// Cycles the accelerator is busy for `result`. Per layer: one cycle per output
// position of every pass (the 64 processors work in parallel on one position),
// plus a fixed layer start-up cost; at least one cycle in total.
uint64_t interim_cycles(const EngineResult& result);

}  // namespace ai8x
