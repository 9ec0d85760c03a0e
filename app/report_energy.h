// The report page's energy section (docs/reports.md): energy per firmware
// phase and a stacked bar per layer (compute, memory, busy quadrants) from
// the run JSON's `energy` object (app/run_report.cpp writes it).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace ai8x {

// HTML of the section; throws ReportInputError naming a missing field.
std::string energy_section_html(const nlohmann::json& energy);

}  // namespace ai8x
