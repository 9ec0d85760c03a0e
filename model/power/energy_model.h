// Energy per inference from the activity counters (docs/energy-model.md):
// every counted event (docs/activity.md) times its energy, plus the clock
// tree, datapath and leakage of each busy quadrant, plus the Cortex-M4
// asleep during the inference and awake while it loads weights and input.
// The coefficients are the device's (configs: energy:, tlm/energy_config.h).
// Linear in every coefficient, which is what lets tools/energy_fit.cpp fit
// them by least squares through this very function.
#pragma once

#include <cstdint>
#include <vector>

#include "tlm/energy_config.h"

namespace ai8x {

// What one layer of the inference did, summed over the module tree.
struct LayerEvents {
    int layer = 0;
    uint64_t macs = 0;
    uint64_t data_sram_reads = 0, data_sram_writes = 0;
    uint64_t tram_reads = 0, tram_writes = 0;
    uint64_t kernel_reads = 0, bias_reads = 0;
    uint64_t quadrant_busy_cycles = 0;  // summed over quadrants
};

struct EnergyInputs {
    std::vector<LayerEvents> layers;
    double cnn_clock_hz = 0;  // CNN clock during the inference (leakage: cycles -> seconds)
    double inference_us = 0;  // time the CPU sleeps waiting for the inference
    // Multiplies the busy cycles of every quadrant: 1 with the model's own
    // timing; silicon time / model time to evaluate at a measured duration.
    double time_scale = 1;
    double weight_load_us = 0, input_load_us = 0;  // CPU time loading kernels+bias and input
    uint64_t weight_bus_writes = 0;                // words the CPU wrote into kernel and bias memories
    uint64_t input_bus_writes = 0;                 // words the CPU wrote into data memories
};

struct LayerEnergy {
    int layer = 0;
    double compute_uj = 0;   // multiply-accumulates and kernel reads
    double memory_uj = 0;    // data SRAM, TRAM and bias accesses
    double quadrant_uj = 0;  // busy quadrants: clock tree, datapath, leakage
    double total_uj() const { return compute_uj + memory_uj + quadrant_uj; }
};

struct EnergyEstimate {
    std::vector<LayerEnergy> layers;
    double cpu_sleep_uj = 0;    // the CPU asleep during the inference
    double inference_uj = 0;    // layers + cpu_sleep_uj
    double weight_load_uj = 0;  // CPU active while loading kernels and bias + the memory writes
    double input_load_uj = 0;   // CPU active while loading the input + the memory writes
};

EnergyEstimate estimate_energy(const EnergyConfig& coefficients, const EnergyInputs& inputs);

}  // namespace ai8x
