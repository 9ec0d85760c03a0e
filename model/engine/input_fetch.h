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
    uint32_t rows = 0, cols = 0;    // pooled dimensions
    uint32_t passes = 0;
    // planes[processor index in LayerConfig::processors][pass] -> rows * cols values
    std::vector<std::vector<std::vector<int8_t>>> planes;
    uint64_t word_reads = 0;        // data memory words fetched (one HWC word feeds four processors)

    const std::vector<int8_t>& plane(std::size_t processor, uint32_t pass) const {
        return planes[processor][pass];
    }
};

// Reads, pools and combines the inputs of every processor of `cfg`. Reads that
// fall outside data memory yield 0 and add one warning per processor.
InputPlanes fetch_inputs(const AcceleratorState& state, const LayerConfig& cfg,
                         std::vector<EngineWarning>& warnings);

}  // namespace ai8x
