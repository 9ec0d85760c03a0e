// Collects the activity counters of the module tree (model/hierarchy) into
// the run report: one series per processor, quadrant and memory instance.
#pragma once

#include <vector>

#include "app/run_report.h"
#include "model/accel_state.h"

namespace ai8x {

// `layers`: the layers the last inference ran, in index order.
RunReport::Activity collect_activity(const AcceleratorState& state, const std::vector<int>& layers);

}  // namespace ai8x
