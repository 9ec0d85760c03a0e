// The machine-readable summary of `ai8xsim run` (--json FILE).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/power/energy_model.h"

namespace ai8x {

struct RunReport {
    std::string result;  // "pass", "fail" or "error"
    // The firmware's own known-answer test, whatever happened after it: "pass",
    // "fail" or empty (not reached). A firmware that passes and then faults has
    // result "error" and kat "pass".
    std::string kat;
    std::string vector;                      // the firmware folder that ran
    double cnn_clock_hz = 0;                 // CNN clock the inference ran at (cycles -> time)
    bool cnn_pipeline = false;               // the inference ran with the MAX78002 pipeline
    std::optional<uint64_t> estimate_total;  // generator's total latency estimate (meta.json), if any
    std::string console;
    uint64_t cnn_cycles = 0;
    uint64_t stall_cycles = 0;   // FIFO mode: CNN cycles waiting for input words
    uint64_t dropped_words = 0;  // FIFO words lost to full or disabled FIFOs
    // FIFOs the accelerator waited for while empty next to a full FIFO: firmware
    // that never writes them deadlocks (docs/fifo.md §7.1).
    std::vector<unsigned> starved_fifos;
    struct Layer {
        int layer = 0;
        std::optional<uint64_t> cycles;  // null until the accelerator reports per-layer cycles
        uint64_t macs = 0;
        std::optional<uint64_t> estimate;   // generator's latency estimate for the layer (meta.json)
        std::optional<double> utilization;  // macs / (cycles x processors x peak MACs per processor-cycle)
        std::optional<std::pair<uint64_t, uint64_t>> stream_span;  // streaming layers: first/last chain cycle
    };
    std::vector<Layer> layers;
    struct Hazard {  // streaming hazards (docs/streaming.md §6)
        int layer = 0;
        uint32_t address = 0;
        uint64_t cycle = 0;
        std::string kind;
        uint64_t count = 0;
        std::string message;
    };
    std::vector<Hazard> hazards;
    struct Warning {  // misprogramming found by the layer engine (last inference)
        int quadrant = -1;
        std::string where;  // the quadrant's hierarchical name, e.g. "cnn.q1" (empty: none)
        int layer = -1;
        std::string reg;   // register the warning is about, e.g. "LREG_RPTR_BASE"
        std::string kind;  // e.g. "unwritten_read"; empty for one-off warnings
        uint64_t count = 1;
        std::string message;
    };
    std::vector<Warning> warnings;
    // What each processor, quadrant and memory instance did in every layer of
    // the last inference (docs/activity.md). Per-layer arrays follow `layers`.
    struct Activity {
        std::vector<int> layers;  // layers that ran, in index order
        struct Series {
            std::string name;                        // hierarchical, e.g. "cnn.q2.p37" or "cnn.q2.p37.tram"
            std::string kind;                        // processor, quadrant, data_sram, tram, kernel, bias
            std::vector<uint64_t> first;             // processor: MACs; quadrant: busy cycles; memory: reads
            std::vector<uint64_t> second;            // memory: writes (empty otherwise)
            uint64_t bus_reads = 0, bus_writes = 0;  // memory: accesses by bus masters since reset
        };
        std::vector<Series> processors, quadrants, memories;
    };
    std::optional<Activity> activity;
    struct MemoryUse {                                      // occupancy of one memory instance after the run
        std::string memory;                                 // "data_sram", "kernel", "bias"
        int instance = 0;                                   // global instance (quadrant-major)
        std::string name;                                   // hierarchical, e.g. "cnn.q0.p4.sram"
        uint32_t words = 0;                                 // capacity in words
        uint32_t used = 0;                                  // words in use (see `basis`)
        std::vector<std::pair<uint32_t, uint32_t>> ranges;  // used words as [first, last] runs
    };
    std::vector<MemoryUse> memory;
    // Simulated microseconds of each firmware step, in this order: weights,
    // bias, configure, input, inference, unload_check; `us` is empty when the
    // firmware has no such step (app/firmware_phases.h).
    struct Phase {
        std::string name;
        std::optional<double> us;
    };
    std::vector<Phase> phases;
    // Energy estimate of the run (docs/energy-model.md): absent when the device
    // file has no coefficients or no inference ran.
    struct Energy {
        bool calibrated = false;  // false: "uncalibrated", the coefficients are not this chip's measurements
        std::string basis;        // what the coefficients rest on
        double voltage_v = 0;
        double cnn_clock_hz = 0;  // CNN clock during the inference
        EnergyEstimate estimate;
    };
    std::optional<Energy> energy;
    struct FirmwareFault {  // one report of the memory checker (firmware/host/memory_checker.h)
        std::string kind;
        uint32_t site = 0;
        std::string function;
        std::string object;
        uint32_t object_size = 0;
        uint32_t first_address = 0;
        uint32_t extent_past_end = 0;
        uint64_t count = 0;
        double first_us = 0;
        uint64_t first_instruction = 0;
        std::string message;
    };
    std::optional<std::vector<FirmwareFault>> firmware_faults;  // null when the checker was off
    double sim_time_us = 0;
    std::optional<double> inference_wall_seconds;  // host seconds from CNN start to its interrupt
    uint64_t cpu_instructions = 0;
    // Dual-core runs (--riscv firmware): the RISC-V core's instruction count;
    // `phases` are then the RISC-V core's (it runs cnn.c). Absent otherwise.
    std::optional<uint64_t> riscv_instructions;
    std::string phases_core = "cpu";  // core whose calls the phases time
    double wall_seconds = 0;
    std::optional<std::string> error;
};

// The run JSON's document (docs/reports.md).
nlohmann::json run_report_json(const RunReport& report);
// Writes `document` as the run JSON is written (indented, invalid UTF-8 of
// the console replaced) to `path` through a temporary file and a rename, so
// readers never see half a file. Throws std::runtime_error naming the path.
void write_json_file(const nlohmann::json& document, const std::string& path);
// write_json_file(run_report_json(report), path).
void write_run_report(const RunReport& report, const std::string& path);

// The run JSON's top-level fields that measure the host's wall clock. They are
// the only ones that may differ between two runs of the same vector (any
// build, any number of runs at once); strip them to compare runs
// (docs/determinism.md). Keep this list complete when adding a field.
inline const std::vector<std::string>& wall_clock_fields() {
    static const std::vector<std::string> fields = {"inference_wall_seconds", "wall_seconds"};
    return fields;
}

}  // namespace ai8x
