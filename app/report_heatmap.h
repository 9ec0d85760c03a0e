// The report page's processors-by-layers heat map, drawn from the run JSON's
// `activity` section (docs/activity.md).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace ai8x {

// One SVG: a row per processor, a column per layer, the cell shaded by the
// processor's MACs in that layer relative to the largest cell. Throws
// ReportInputError when a field the map needs is missing.
std::string activity_heatmap_svg(const nlohmann::json& activity);

}  // namespace ai8x
