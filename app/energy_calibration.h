// Fitting the energy coefficients to silicon measurements (configs: energy.
// calibration) and measuring how well they do: shared by the fit tool
// (tools/energy_fit.cpp) and the calibration test, so that the errors in
// docs/energy-model.md are what this code computes, not typed in.
//
// A measured inference is evaluated at its silicon duration: the busy cycles
// of every quadrant are scaled by silicon time / model time, because the
// model's own layer timing of the device may not be calibrated.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/power/energy_model.h"
#include "tlm/energy_config.h"

namespace ai8x {

struct CalibrationRun {
    EnergyMeasurement measured;
    EnergyInputs inputs;            // the run's activity, at the measured inference time
    double model_inference_us = 0;  // the model's own inference time (inputs at time_scale 1 would use it)
};

// The run JSON of one calibration vector (`ai8xsim run --json`), matched to
// its measurement by the folder name. std::runtime_error naming the vector
// when it is not listed or the JSON lacks what the model needs.
CalibrationRun calibration_run(const EnergyConfig& config, const nlohmann::json& run);

// The fitted coefficients: one busy-quadrant energy per cycle and one energy
// per memory access (data SRAM, TRAM, bias) from the inference rows marked
// "fit" (least squares on relative error), then the CPU's active power from
// the rows with a weight-loading energy. The other coefficients stay `base`'s.
struct EnergyFit {
    double quadrant_cycle_pj = 0;
    double memory_access_pj = 0;
    double cpu_active_mw = 0;
    bool has_cpu_fit = false;  // some row had a weight-loading energy
    double condition = 0;      // fit_condition of the fit rows
};
// Condition number of the inference fit on `rows` (2-norm, columns scaled to
// unit length, rows divided by the measured energy): how much a relative error
// of the measurements is amplified in the two fitted coefficients. It uses the
// activity and the measurements of the fit rows only, none of the held-out
// ones, so the device file picks its fit pair by it (docs/energy-model.md).
double fit_condition(const std::vector<const CalibrationRun*>& rows);

EnergyFit fit_energy(const EnergyConfig& base, const std::vector<CalibrationRun>& runs);
EnergyConfig with_fit(EnergyConfig base, const EnergyFit& fit);

// Leave-one-out: each run's inference energy predicted by the fit on all the
// other runs (every one of them marked fit, whatever the device file says),
// at the silicon inference time and at the model's own.
struct EnergyPrediction {
    const CalibrationRun* run = nullptr;
    EnergyFit fitted;  // on the other runs
    double at_silicon_time_uj = 0;
    double at_model_time_uj = 0;
};
std::vector<EnergyPrediction> leave_one_out_energy(const EnergyConfig& base, const std::vector<CalibrationRun>& runs);

// The run's inference at the model's own inference time (what `ai8xsim run` uses).
EnergyInputs at_model_time(const CalibrationRun& run);

// Relative error of `predicted` against `measured`, in percent.
inline double percent_error(double predicted, double measured) { return (predicted - measured) / measured * 100.0; }

}  // namespace ai8x
