#include "model/engine/host_profile.h"

#include <spdlog/spdlog.h>
#include <sys/resource.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <utility>

namespace ai8x {

namespace {

double micros(HostProfile::Clock::duration d) { return std::chrono::duration<double, std::micro>(d).count(); }

// Minor page faults of the process so far (every thread: the worker pool's too).
long process_minor_faults() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_minflt;
}

}  // namespace

HostProfile::HostProfile(std::string path) : path_(std::move(path)) {}

HostProfile::~HostProfile() {
    std::string error;
    if (!path_.empty() && !write(path_, error)) spdlog::error("{}", error);
}

std::unique_ptr<HostProfile> HostProfile::from_environment() {
    const char* path = std::getenv("AI8XSIM_HOST_PROFILE");
    if (!path || !*path) return nullptr;
    return std::make_unique<HostProfile>(path);
}

void HostProfile::start_inference() {
    inferences_.emplace_back();
    inference_start_ = Clock::now();
}

void HostProfile::start_layer(int layer, unsigned long shared_calls) {
    // A layer run outside an inference (unit tests, tools) opens one.
    if (inferences_.empty()) start_inference();
    inferences_.back().layers.emplace_back();
    inferences_.back().layers.back().layer = layer;
    shared_at_start_ = shared_calls;
    faults_at_start_ = process_minor_faults();
    layer_start_ = last_lap_ = Clock::now();
}

void HostProfile::lap(HostStage stage) {
    if (inferences_.empty() || inferences_.back().layers.empty()) return;
    const Clock::time_point now = Clock::now();
    inferences_.back().layers.back().stage_us[static_cast<unsigned>(stage)] += micros(now - last_lap_);
    last_lap_ = now;
}

void HostProfile::finish_layer(unsigned long shared_calls) {
    if (inferences_.empty() || inferences_.back().layers.empty()) return;
    lap(HostStage::other);
    Inference& inference = inferences_.back();
    Layer& layer = inference.layers.back();
    layer.total_us = micros(last_lap_ - layer_start_);
    layer.shared_calls = shared_calls - shared_at_start_;
    layer.page_faults = process_minor_faults() - faults_at_start_;
    inference.engine_us = micros(last_lap_ - inference_start_);
}

const char* HostProfile::stage_name(HostStage stage) {
    static const char* const names[] = {"decode", "input", "weights", "kernel", "writes", "other"};
    return names[static_cast<unsigned>(stage)];
}

std::string HostProfile::to_json() const {
    nlohmann::json inferences = nlohmann::json::array();
    for (const Inference& inference : inferences_) {
        nlohmann::json layers = nlohmann::json::array();
        for (const Layer& l : inference.layers) {
            nlohmann::json stages = nlohmann::json::object();
            for (unsigned s = 0; s < static_cast<unsigned>(HostStage::count); ++s)
                stages[stage_name(static_cast<HostStage>(s))] = l.stage_us[s];
            layers.push_back({{"layer", l.layer},
                              {"total_us", l.total_us},
                              {"stages_us", stages},
                              {"page_faults", l.page_faults},
                              {"shared_calls", l.shared_calls}});
        }
        inferences.push_back({{"engine_us", inference.engine_us}, {"layers", layers}});
    }
    return nlohmann::json{{"host_profile", 1}, {"inferences", inferences}}.dump(1) + "\n";
}

bool HostProfile::write(const std::string& path, std::string& error) const {
    std::ofstream out(path, std::ios::trunc);
    if (out) out << to_json();
    if (out.flush()) return true;
    error = "cannot write the host profile " + path;
    return false;
}

}  // namespace ai8x
