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
    std::string reg;  // register name, e.g. "LREG_WPTR_BASE"
    std::string message;
    // Warnings with a kind are reported once per (layer, register, kind);
    // count says how many occurrences were merged into this one.
    std::string kind;
    uint64_t count = 1;
};

// Merges warnings that share (layer, register, kind), keeping the first
// message and adding up the counts; warnings without a kind stay as they are.
void merge_warnings(std::vector<EngineWarning>& warnings);

// What one layer did; consumed by the timing model and the reports.
struct LayerStats {
    int layer = 0;
    uint64_t macs = 0;                  // multiply-accumulates performed
    uint64_t input_reads = 0;           // data memory words read (incl. padding/pooling reads)
    uint64_t output_writes = 0;         // data memory words written
    uint32_t in_rows = 0, in_cols = 0;  // programmed rows/columns (incl. padding)
    uint32_t out_rows = 0, out_cols = 0;
    uint32_t passes = 1;  // multi-pass count
    bool streaming = false;
};

// One layer's output as (channel, row, column) values, read back from data
// memory right after the layer ran (later layers may overwrite it).
struct LayerOutput {
    int layer = 0;
    uint32_t channels = 0, rows = 0, cols = 0;
    std::vector<int64_t> values;  // channel-major, then row, then column
};

// A streaming hazard (docs/streaming.md §6): the first occurrence (layer, bus
// address of the ring slot, CNN cycle from the start of the chain) and how
// often that kind occurred in that layer. Found by model/stream/.
struct StreamHazard {
    int layer = -1;
    uint32_t address = 0;
    uint64_t cycle = 0;
    std::string kind;  // "read_before_write" (§6.1), "stale_read" / "overrun" (§6.2), "deadlock"
    uint64_t count = 0;
    std::string message;
};

struct EngineResult {
    std::vector<LayerStats> layers;
    std::vector<LayerOutput> outputs;  // only when capture is on
    std::vector<EngineWarning> warnings;
    std::vector<StreamHazard> hazards;  // streaming inferences only
};

class InputWordSource;
class OutputWordSink;
struct SequencePlan;

// Redirections of a layer's reads and writes, used by the streaming controller
// (model/stream/) for layers that read or feed an input ring.
struct LayerHooks {
    const InputWordSource* input = nullptr;
    OutputWordSink* output = nullptr;
};

class LayerEngine {
public:
    explicit LayerEngine(AcceleratorState& state);

    // Runs every layer from 0 to the programmed last layer (REG_LCNT_MAX) for the
    // quadrants enabled in the control registers, as the hardware sequencer would.
    EngineResult run();

    // Runs a single layer (used by the sequencer when it interleaves work with time).
    // `plan`: plan_sequence() of the current registers when the caller has it
    // (run() plans once for all its layers); null: planned here.
    LayerStats run_layer(int layer, std::vector<EngineWarning>& warnings, const LayerHooks& hooks = {},
                         const SequencePlan* plan = nullptr);

    // Where run_layer() records layer outputs when called directly (nullptr: nowhere).
    void set_capture_target(std::vector<LayerOutput>* outputs) { captured_ = outputs; }

    // When on, run() also records each layer's output (for --dump-layers).
    void set_capture(bool on) { capture_ = on; }

private:
    // run_layer() without the host profile's start and end.
    LayerStats compute_layer(int layer, std::vector<EngineWarning>& warnings, const LayerHooks& hooks,
                             const SequencePlan* planned);

    AcceleratorState& state_;
    bool capture_ = false;
    std::vector<LayerOutput>* captured_ = nullptr;  // set during run() when capturing
};

}  // namespace ai8x
