// Which parts of the accelerator's memories hold written data after a run:
// the "memory" section of the run JSON and the occupancy map of the report page.
#pragma once

#include <vector>

#include "testbench/app/run_report.h"

namespace ai8x {

struct AcceleratorState;

// Reads the per-word written maps of `state` (set by CPU writes, kernel loads,
// FIFO writes and layer outputs). Memories without such a map (bias, TRAM) are
// not listed rather than guessed from their contents.
std::vector<RunReport::MemoryUse> memory_occupancy(const AcceleratorState& state);

}  // namespace ai8x
