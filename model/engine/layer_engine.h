// The layer engine computes, bit for bit, what the 64 processors of the
// accelerator write to data memory when the layer sequencer runs. It reads only
// the registers and memories in AcceleratorState, exactly as the hardware does,
// and writes its results back there. It knows nothing about buses or time; the
// timing model consumes the per-layer statistics it returns.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/accel_state.h"

namespace ai8x {

// A programming problem found while executing (pointer outside memory,
// processor enabled without kernels, ...). Execution continues as hardware would.
struct EngineWarning {
    int quadrant = -1;
    int layer = -1;
    std::string reg;      // register name, e.g. "LREG_WPTR_BASE"
    std::string message;
};

// What one layer did; consumed by the timing model and the reports.
struct LayerStats {
    int layer = 0;
    uint64_t macs = 0;            // multiply-accumulates performed
    uint64_t input_reads = 0;     // data memory words read (incl. padding/pooling reads)
    uint64_t output_writes = 0;   // data memory words written
    uint32_t in_rows = 0, in_cols = 0;     // programmed rows/columns (incl. padding)
    uint32_t out_rows = 0, out_cols = 0;
    uint32_t passes = 1;          // multi-pass count
    bool streaming = false;
};

// One layer's output as (channel, row, column) values, read back from data
// memory right after the layer ran (later layers may overwrite it).
struct LayerOutput {
    int layer = 0;
    uint32_t channels = 0, rows = 0, cols = 0;
    std::vector<int64_t> values;  // channel-major, then row, then column
};

struct EngineResult {
    std::vector<LayerStats> layers;
    std::vector<LayerOutput> outputs;  // only when capture is on
    std::vector<EngineWarning> warnings;
};

class LayerEngine {
public:
    explicit LayerEngine(AcceleratorState& state);

    // Runs every layer from 0 to the programmed last layer (REG_LCNT_MAX) for the
    // quadrants enabled in the control registers, as the hardware sequencer would.
    EngineResult run();

    // Runs a single layer (used by the sequencer when it interleaves work with time).
    LayerStats run_layer(int layer, std::vector<EngineWarning>& warnings);

    // When on, run() also records each layer's output (for --dump-layers).
    void set_capture(bool on) { capture_ = on; }

private:
    AcceleratorState& state_;
    bool capture_ = false;
    std::vector<LayerOutput>* captured_ = nullptr;  // set during run() when capturing
};

}  // namespace ai8x
