// The run's energy estimate (model/power/energy_model.h) from what the run
// report already holds: the activity counters and the firmware phases. Also
// reads those two back from a run JSON, so that tools/energy_fit.cpp and the
// calibration test evaluate exactly what a run printed.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/run_report.h"
#include "model/power/energy_model.h"
#include "tlm/energy_config.h"

namespace ai8x {

// Per-layer event totals, loading times and bus writes of a run.
// `inference_clock_hz`: the CNN clock while the inference ran.
EnergyInputs energy_inputs(const RunReport::Activity& activity, const std::vector<RunReport::Phase>& phases,
                           double inference_clock_hz);

// The report's energy section; nullopt when the device has no coefficients.
std::optional<RunReport::Energy> energy_for_run(const EnergyConfig& config, const EnergyInputs& inputs);

// "energy: 97.4 µJ per inference (...)" for the run summary.
std::string energy_summary(const RunReport::Energy& energy);

// The `activity` and `phases` sections of a run JSON; std::runtime_error
// naming the field when one is missing or malformed.
RunReport::Activity activity_from_json(const nlohmann::json& activity);
std::vector<RunReport::Phase> phases_from_json(const nlohmann::json& phases);

}  // namespace ai8x
