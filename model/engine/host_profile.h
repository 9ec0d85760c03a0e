// Where the host's wall time goes inside the layer engine, per inference,
// layer and stage (issue #26): an opt-in probe for users and engineers who
// want to see which stage of which layer holds an inference back on their
// machine. Set AI8XSIM_HOST_PROFILE=FILE and the accelerator writes FILE as
// JSON when it is destroyed (docs/reports.md). Off (no profile), the
// engine pays one null check per stage.
//
// Stages are timed as laps: each lap() books the time since the previous
// one to a stage, so the stages of a layer add up to its total without
// nested clocks. Wall time only, never used by the simulation: nothing
// simulated depends on it.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ai8x {

enum class HostStage : unsigned {
    decode,   // the layer's registers decoded, the output writer set up
    input,    // the input fetch (image, planes, byte operands)
    weights,  // kernel memory decoded and packed for the kernel
    kernel,   // the dot products (shared over the pool when large enough)
    writes,   // output writes, passthrough layers' writes
    other,    // the rest: biases, activity counters, captured outputs
    count
};

class HostProfile {
public:
    using Clock = std::chrono::steady_clock;

    // `path`: where the destructor writes the profile (empty: nowhere).
    explicit HostProfile(std::string path = {});
    ~HostProfile();
    HostProfile(const HostProfile&) = delete;
    HostProfile& operator=(const HostProfile&) = delete;

    // A profile to write to $AI8XSIM_HOST_PROFILE, or null when it is unset or empty.
    static std::unique_ptr<HostProfile> from_environment();

    struct Layer {
        int layer = -1;
        std::array<double, static_cast<unsigned>(HostStage::count)> stage_us{};
        double total_us = 0;
        // Minor page faults of the whole process during the layer: on hosts
        // where a first touch of memory is costly (some virtual machines take
        // over 10 us a fault) they, not instructions, can set a layer's time.
        long page_faults = 0;
        unsigned long shared_calls = 0;  // computations handed to the worker pool in this layer
    };
    struct Inference {
        double engine_us = 0;  // first layer's start to last layer's end, gaps included
        std::vector<Layer> layers;
    };

    // An inference starts: the layers that follow belong to it.
    void start_inference();
    // A layer starts; `shared_calls`: the pool's count so far (0 without one).
    void start_layer(int layer, unsigned long shared_calls);
    // Books the time since the previous lap (or the layer's start) to `stage`.
    void lap(HostStage stage);
    // The layer ends: the time since the last lap goes to `other`.
    void finish_layer(unsigned long shared_calls);

    const std::vector<Inference>& inferences() const { return inferences_; }
    static const char* stage_name(HostStage stage);
    // The profile as JSON text (docs/reports.md, "Host time per layer").
    std::string to_json() const;
    // Writes to_json() to `path`; false with `error` set when it cannot.
    bool write(const std::string& path, std::string& error) const;

private:
    std::string path_;
    std::vector<Inference> inferences_;
    Clock::time_point inference_start_, layer_start_, last_lap_;
    long faults_at_start_ = 0;
    unsigned long shared_at_start_ = 0;
};

// lap() when profiling (`profile` not null).
inline void host_lap(HostProfile* profile, HostStage stage) {
    if (profile) profile->lap(stage);
}

}  // namespace ai8x
