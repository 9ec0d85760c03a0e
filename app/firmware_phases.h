// Where the firmware's time goes: simulated microseconds spent in each step
// that the generator's main() performs (load weights, load bias, configure,
// load input, inference, unload and check). The steps are found by the names
// of the generated functions in the firmware's ELF symbols and timed with the
// CPU's call observers (entry and return); a step whose functions the
// firmware lacks is reported as absent (null in the JSON).
//
// Phases may overlap: FIFO firmware calls load_input while the accelerator
// runs, so "input" and "inference" cover the same stretch of time.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <systemc>

#include "app/run_report.h"

namespace ai8x {

class UnicornCpu;

class FirmwarePhases {
public:
    // Observes the generated functions present in the CPU's loaded image.
    // Call after load_elf and before the simulation starts (the core that runs cnn.c).
    void attach(UnicornCpu& cpu);

    // Time of each phase, in the fixed order of RunReport::phases. The
    // inference is the accelerator's own time, cnn_cycles / cnn_clock_hz
    // (absent when no inference ran).
    std::vector<RunReport::Phase> times(uint64_t cnn_cycles, double cnn_clock_hz) const;

    struct Interval {
        sc_core::sc_time from, to;
    };
    struct Span {
        std::string phase;  // as in RunReport::phases
        Interval when;
    };
    // When each CPU phase ran (the inference is the accelerator's, not here):
    // its calls merged where they overlap, so that a phase's spans add up to
    // its time in times(). For `run --timeline`.
    std::vector<Span> spans() const;

private:
    struct CpuPhase {
        const char* name;
        std::vector<const char*> functions;  // any of these, by ELF symbol name
        bool present = false;                // the image has at least one of them
        std::vector<Interval> calls;         // every observed call
    };
    static std::vector<Interval> merged(const std::vector<Interval>& calls);
    static double union_us(const std::vector<Interval>& calls);
    std::vector<CpuPhase> phases_ = {
        {"weights", {"cnn_load_weights"}, false, {}},
        {"bias", {"cnn_load_bias"}, false, {}},
        {"configure", {"cnn_init", "cnn_configure"}, false, {}},
        {"input", {"load_input"}, false, {}},
        {"unload_check", {"cnn_unload", "check_output"}, false, {}},
    };
};

// "weights 812.3 us, bias -, ..." for the human-readable run summary.
std::string format_phases(const std::vector<RunReport::Phase>& phases);

}  // namespace ai8x
