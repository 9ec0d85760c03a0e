// The machine-readable summary of `ai8xsim run` (--json FILE).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ai8x {

struct RunReport {
    std::string result;                  // "pass", "fail" or "error"
    std::string console;
    uint64_t cnn_cycles = 0;
    struct Layer {
        int layer = 0;
        std::optional<uint64_t> cycles;  // null until the accelerator reports per-layer cycles
        uint64_t macs = 0;
    };
    std::vector<Layer> layers;
    double sim_time_us = 0;
    uint64_t cpu_instructions = 0;
    double wall_seconds = 0;
    std::optional<std::string> error;
};

// Writes `report` as JSON to `path` through a temporary file and a rename, so
// readers never see half a file. Throws std::runtime_error naming the path.
void write_run_report(const RunReport& report, const std::string& path);

}  // namespace ai8x
