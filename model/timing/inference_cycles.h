// Cycles of a whole inference: the start-up cycles plus every layer the
// sequencer runs, each timed by TimingModel from its decoded registers.
#pragma once

#include <cstdint>
#include <vector>

#include "model/accel_state.h"
#include "model/sequencing.h"
#include "model/timing/timing_model.h"

namespace ai8x {

struct TimedLayer {
    int layer = 0;
    LayerCycles cycles;
    uint32_t passes = 1;  // input passes per position (waveforms show it)
};

// Where an interleaved streaming layer ran on the chain's timeline (cycles
// counted from the start of the chain, docs/timing-model.md "Streaming layers").
struct StreamSpan {
    int layer = 0;
    uint64_t first = 0, last = 0;
};

struct InferenceCycles {
    uint64_t startup = 0;
    std::vector<TimedLayer> layers;        // layers that decode; the others cost nothing
    uint64_t stall_cycles = 0;             // FIFO mode: cycles spent waiting for input words
    std::vector<StreamSpan> stream_spans;  // streaming layers only

    uint64_t total() const;
};

// Times the layers `plan` sequences (REG_LCNT_MAX start to last layer of the
// master, model/sequencing.h) over its enabled quadrants. Layers that do not
// decode are left out; the layer engine reports why when it runs them.
InferenceCycles inference_cycles(const TimingModel& model, const AcceleratorState& state, const SequencePlan& plan);

}  // namespace ai8x
