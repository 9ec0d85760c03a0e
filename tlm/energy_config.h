// Energy coefficients of a device (configs/<device>.yaml, section `energy:`)
// and the silicon measurements they were fitted to. The model that uses them
// is model/power/energy_model.h; docs/energy-model.md has the derivation.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace ai8x {

// One published silicon measurement of a network's energy (energy.calibration).
struct EnergyMeasurement {
    std::string vector;                    // golden vector folder name, e.g. "demo87-mnist"
    std::string role;                      // "fit" (used to fit the coefficients) or "validate" (held out)
    double inference_uj = 0;               // inference-only energy, active minus idle
    double inference_us = 0;               // inference time measured with it on silicon
    std::optional<double> weight_load_uj;  // energy of loading the weights, when published
    std::string source;                    // where the numbers are printed
};

struct EnergyConfig {
    bool present = false;     // the device file has an energy: section
    bool calibrated = false;  // coefficients fitted to this device's own silicon data
    std::string basis;        // one line: what the coefficients rest on (shown with every estimate)
    double voltage_v = 0;     // core supply the coefficients hold for (the firmware does not change it)
    // Energy per event, picojoules (docs/activity.md says what one event is).
    double mac_pj = 0;
    double data_sram_read_pj = 0, data_sram_write_pj = 0;
    double tram_read_pj = 0, tram_write_pj = 0;
    double kernel_read_pj = 0, bias_read_pj = 0;
    double bus_write_pj = 0;  // one word written into an accelerator memory by the CPU
    // Per busy quadrant: clock tree and datapath per CNN cycle, and leakage per second.
    double quadrant_cycle_pj = 0;
    double quadrant_leakage_mw = 0;
    // Cortex-M4: while it executes (weight and input loading) and while it sleeps in WFI.
    double cpu_active_mw = 0;
    double cpu_sleep_mw = 0;
    std::vector<EnergyMeasurement> calibration;
};

}  // namespace ai8x
