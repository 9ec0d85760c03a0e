#include "app/energy_report.h"

#include <stdexcept>

#include <spdlog/fmt/fmt.h>

namespace ai8x {

namespace {

std::optional<double> phase_us(const std::vector<RunReport::Phase>& phases, const char* name) {
    for (const auto& p : phases)
        if (p.name == name) return p.us;
    return std::nullopt;
}

uint64_t at(const std::vector<uint64_t>& v, std::size_t i) { return i < v.size() ? v[i] : 0; }

const nlohmann::json& energy_field(const nlohmann::json& j, const char* key, const std::string& where) {
    if (!j.is_object() || !j.contains(key)) throw std::runtime_error(where + ": missing field '" + key + "'");
    return j.at(key);
}

std::vector<uint64_t> counts(const nlohmann::json& j, const char* key, const std::string& where) {
    const nlohmann::json& a = energy_field(j, key, where);
    if (!a.is_array()) throw std::runtime_error(where + "." + key + ": expected an array of counts");
    std::vector<uint64_t> out;
    for (const auto& v : a) {
        if (!v.is_number_unsigned()) throw std::runtime_error(where + "." + key + ": expected an array of counts");
        out.push_back(v.get<uint64_t>());
    }
    return out;
}

}  // namespace

EnergyInputs energy_inputs(const RunReport::Activity& a, const std::vector<RunReport::Phase>& phases,
                           double inference_clock_hz) {
    EnergyInputs in;
    in.cnn_clock_hz = inference_clock_hz;
    for (std::size_t i = 0; i < a.layers.size(); ++i) {
        LayerEvents l;
        l.layer = a.layers[i];
        for (const auto& p : a.processors) l.macs += at(p.first, i);
        for (const auto& q : a.quadrants) l.quadrant_busy_cycles += at(q.first, i);
        for (const auto& m : a.memories) {
            const uint64_t reads = at(m.first, i), writes = at(m.second, i);
            if (m.kind == "data_sram") {
                l.data_sram_reads += reads;
                l.data_sram_writes += writes;
            } else if (m.kind == "tram") {
                l.tram_reads += reads;
                l.tram_writes += writes;
            } else if (m.kind == "kernel") {
                l.kernel_reads += reads;
            } else if (m.kind == "bias") {
                l.bias_reads += reads;
            }
        }
        in.layers.push_back(l);
    }
    for (const auto& m : a.memories) {
        if (m.kind == "kernel" || m.kind == "bias") in.weight_bus_writes += m.bus_writes;
        if (m.kind == "data_sram") in.input_bus_writes += m.bus_writes;
    }
    in.inference_us = phase_us(phases, "inference").value_or(0);
    in.weight_load_us = phase_us(phases, "weights").value_or(0) + phase_us(phases, "bias").value_or(0);
    in.input_load_us = phase_us(phases, "input").value_or(0);
    return in;
}

std::optional<RunReport::Energy> energy_for_run(const EnergyConfig& config, const EnergyInputs& inputs) {
    if (!config.present) return std::nullopt;
    RunReport::Energy e;
    e.calibrated = config.calibrated;
    e.basis = config.basis;
    e.voltage_v = config.voltage_v;
    e.cnn_clock_hz = inputs.cnn_clock_hz;
    e.estimate = estimate_energy(config, inputs);
    return e;
}

std::string energy_summary(const RunReport::Energy& e) {
    return fmt::format(
        "energy: {:.1f} \xC2\xB5J per inference{} (weight load {:.1f} \xC2\xB5J, input load {:.1f} \xC2\xB5J; "
        "CNN at {:.0f} MHz, {:.2f} V; {})",
        e.estimate.inference_uj, e.calibrated ? "" : " [uncalibrated]", e.estimate.weight_load_uj,
        e.estimate.input_load_uj, e.cnn_clock_hz / 1e6, e.voltage_v, e.basis);
}

RunReport::Activity activity_from_json(const nlohmann::json& j) {
    RunReport::Activity a;
    const nlohmann::json& layers = energy_field(j, "layers", "activity");
    if (!layers.is_array()) throw std::runtime_error("activity.layers: expected an array");
    for (const auto& l : layers) a.layers.push_back(l.get<int>());
    const auto series = [&j](const char* section, const char* first, const char* second, const char* kind,
                             std::vector<RunReport::Activity::Series>& out) {
        const std::string where = std::string("activity.") + section;
        const nlohmann::json& list = energy_field(j, section, "activity");
        if (!list.is_array()) throw std::runtime_error(where + ": expected an array");
        for (const auto& e : list) {
            RunReport::Activity::Series s;
            s.name = energy_field(e, "name", where).get<std::string>();
            s.kind = kind ? std::string(kind) : energy_field(e, "kind", where).get<std::string>();
            s.first = counts(e, first, where);
            if (second) {
                s.second = counts(e, second, where);
                s.bus_reads = energy_field(e, "bus_reads", where).get<uint64_t>();
                s.bus_writes = energy_field(e, "bus_writes", where).get<uint64_t>();
            }
            out.push_back(std::move(s));
        }
    };
    series("processors", "macs", nullptr, "processor", a.processors);
    series("quadrants", "busy_cycles", nullptr, "quadrant", a.quadrants);
    series("memories", "reads", "writes", nullptr, a.memories);
    return a;
}

std::vector<RunReport::Phase> phases_from_json(const nlohmann::json& j) {
    if (!j.is_object()) throw std::runtime_error("phases: expected an object");
    std::vector<RunReport::Phase> out;
    for (const auto& [name, v] : j.items()) {
        if (!v.is_null() && !v.is_number()) throw std::runtime_error("phases." + name + ": expected a number or null");
        out.push_back({name, v.is_null() ? std::nullopt : std::optional<double>(v.get<double>())});
    }
    return out;
}

}  // namespace ai8x
