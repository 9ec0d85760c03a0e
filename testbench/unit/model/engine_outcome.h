// What a run of the layer engine leaves behind, for tests that run the same
// golden vector two ways (thread counts, SIMD targets) and require the same
// memories, statistics, warnings, captured layer outputs and activity.
#pragma once

#include <string>
#include <vector>

#include "model/engine/layer_engine.h"
#include "tlm/device_config.h"

namespace ai8x {
class HostProfile;
class WorkerPool;
}  // namespace ai8x

namespace ai8x::test {

struct EngineOutcome {
    std::vector<std::vector<uint32_t>> data;
    std::vector<std::vector<uint8_t>> data_written;
    std::vector<std::vector<uint64_t>> macs;
    std::vector<uint64_t> memory_counts;  // every memory instance's per-layer reads and writes, in order
    std::vector<std::string> layers;      // LayerStats, as text
    std::vector<std::string> warnings;
    std::vector<std::string> hazards;
    std::vector<LayerOutput> outputs;
};

// Runs golden vector `name` of ../shared/vectors on the engine alone with
// `pool` (null: single-threaded): plain vectors directly, FIFO and streaming
// ones (`fifo`) through the streaming controller; layer outputs captured;
// wall time booked to `profile` when given.
EngineOutcome run_engine(const DeviceConfig& cfg, const std::string& name, bool fifo, WorkerPool* pool,
                         HostProfile* profile = nullptr);

// CHECKs that two outcomes are the same in every part.
void require_same(const EngineOutcome& a, const EngineOutcome& b);

}  // namespace ai8x::test
