#include "app/firmware_phases.h"

#include <algorithm>

#include <spdlog/fmt/fmt.h>

#include "firmware/host/unicorn_cpu.h"

namespace ai8x {

void FirmwarePhases::attach(UnicornCpu& cpu) {
    const ElfImage* image = cpu.image();
    if (!image) return;
    for (CpuPhase& phase : phases_)
        for (const char* function : phase.functions) {
            const std::optional<uint32_t> address = image->find_symbol(function);
            if (!address) continue;
            phase.present = true;
            std::vector<Interval>* calls = &phase.calls;
            cpu.observe_calls(*address, [calls](sc_core::sc_time entered, sc_core::sc_time returned) {
                calls->push_back({entered, returned});
            });
        }
}

// The calls as disjoint intervals in time order; a call nested in another of
// the same phase (check_output calling cnn_unload, say) disappears in it.
std::vector<FirmwarePhases::Interval> FirmwarePhases::merged(const std::vector<Interval>& calls) {
    std::vector<Interval> sorted = calls;
    std::sort(sorted.begin(), sorted.end(), [](const Interval& a, const Interval& b) { return a.from < b.from; });
    std::vector<Interval> out;
    for (const Interval& c : sorted) {
        if (!out.empty() && c.from <= out.back().to)
            out.back().to = std::max(out.back().to, c.to);
        else
            out.push_back(c);
    }
    return out;
}

// Total time covered by the calls, each instant counted once.
double FirmwarePhases::union_us(const std::vector<Interval>& calls) {
    double total = 0;
    for (const Interval& run : merged(calls)) total += (run.to - run.from).to_seconds();
    return total * 1e6;
}

std::vector<FirmwarePhases::Span> FirmwarePhases::spans() const {
    std::vector<Span> out;
    for (const CpuPhase& phase : phases_)
        for (const Interval& run : merged(phase.calls)) out.push_back({phase.name, run});
    return out;
}

std::vector<RunReport::Phase> FirmwarePhases::times(uint64_t cnn_cycles, double cnn_clock_hz) const {
    std::vector<RunReport::Phase> out;
    for (const CpuPhase& phase : phases_) {
        // The inference sits between input and unload, in the order main() runs them.
        if (std::string(phase.name) == "unload_check") {
            std::optional<double> inference;
            if (cnn_cycles > 0 && cnn_clock_hz > 0) inference = double(cnn_cycles) / cnn_clock_hz * 1e6;
            out.push_back({"inference", inference});
        }
        // A function that exists but never returned (a failed check spins) has no time.
        std::optional<double> us;
        if (phase.present && !phase.calls.empty()) us = union_us(phase.calls);
        out.push_back({phase.name, us});
    }
    return out;
}

std::string format_phases(const std::vector<RunReport::Phase>& phases) {
    std::string s;
    for (const auto& p : phases)
        s += fmt::format("{}{} {}", s.empty() ? "" : ", ", p.name, p.us ? fmt::format("{:.1f} us", *p.us) : "-");
    return s;
}

}  // namespace ai8x
