// Per-processor input fetch: what each enabled processor reads from its data
// memory instance for one layer, after in-flight pooling and element-wise
// combination. The result is one int8 plane per (processor, input pass), which
// is what the convolution (or passthrough) stage consumes.
#pragma once

#include <cstdint>
#include <vector>

#include "model/accel_state.h"
#include "model/engine/layer_config.h"

namespace ai8x {

struct InputPlanes {
    uint32_t rows = 0, cols = 0;  // pooled dimensions
    uint32_t passes = 0;
    // planes[processor index in LayerConfig::processors][pass] -> rows * cols values
    std::vector<std::vector<std::vector<int8_t>>> planes;
    uint64_t word_reads = 0;  // data memory words fetched (one HWC word feeds four processors)

    const std::vector<int8_t>& plane(std::size_t processor, uint32_t pass) const { return planes[processor][pass]; }
};

// Where a streaming layer's input words come from (docs/streaming.md §4.1): its
// input ring is smaller than the frame and is rewritten while the layer runs, so
// what a read returns depends on when it happens. word() returns what data
// memory instance `instance` holds, at the moment the layer reads pooled
// position `position` (i * pooled_cols + j), in the slot that unwrapped word
// `offset` (counted from the layer's read pointer) maps to.
class InputWordSource {
public:
    virtual ~InputWordSource() = default;
    virtual uint32_t word(uint32_t instance, uint64_t offset, uint64_t position) const = 0;
};

// What one processor read, apart from its values: everything the warnings
// need, gathered without touching shared state so processors can be fetched
// on several threads and reported in order afterwards.
struct ProcessorScan {
    bool out_of_range = false;
    uint64_t unwritten = 0, first_unwritten = 0;
    uint32_t first_unwritten_px = 0;  // lowest pixel that read an unwritten word
    int64_t last_written_px = -1;     // highest pixel that read a written word
};

// Books what the processors of `cfg` read (scans[i]: processor i's): data
// memory and TRAM activity, and the warnings, processor by processor in the
// order of a plain loop. Returns the data memory words read.
uint64_t book_input_reads(const AcceleratorState& state, const LayerConfig& cfg,
                          const std::vector<ProcessorScan>& scans, std::vector<EngineWarning>& warnings);

// Reads, pools and combines the inputs of every processor of `cfg`. Reads that
// fall outside data memory yield 0 and add one warning per processor. With a
// `source`, every pooled position reads its window through it instead of data
// memory (streaming layers).
InputPlanes fetch_inputs(const AcceleratorState& state, const LayerConfig& cfg, std::vector<EngineWarning>& warnings,
                         const InputWordSource* source = nullptr);

}  // namespace ai8x
