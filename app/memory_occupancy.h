// Which parts of the accelerator's memories hold written data after a run:
// the "memory" section of the run JSON and the occupancy map of the report page.
#pragma once

#include <vector>

#include "app/run_report.h"

namespace ai8x {

struct AcceleratorState;

// Reads the per-word written maps of `state` (set by CPU writes, kernel loads,
// FIFO writes and layer outputs). Memories without such a map (bias, TRAM) are
// not listed rather than guessed from their contents.
std::vector<RunReport::MemoryUse> memory_occupancy(const AcceleratorState& state);

// Keeps, per instance, the fuller of `kept` and `now` in `kept` (both from
// memory_occupancy of the same device): the run report shows what the network
// used even where power removal (cnn_disable()) later discarded the contents.
void keep_fuller_occupancy(std::vector<RunReport::MemoryUse>& kept, std::vector<RunReport::MemoryUse> now);

}  // namespace ai8x
