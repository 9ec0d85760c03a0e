#include "app/run_report.h"

#include <cstdio>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>
#include <unistd.h>

namespace ai8x {

namespace {

nlohmann::json activity_json(const RunReport::Activity& a) {
    nlohmann::json j;
    j["layers"] = a.layers;
    j["processors"] = nlohmann::json::array();
    for (const auto& p : a.processors) j["processors"].push_back({{"name", p.name}, {"macs", p.first}});
    j["quadrants"] = nlohmann::json::array();
    for (const auto& q : a.quadrants) j["quadrants"].push_back({{"name", q.name}, {"busy_cycles", q.first}});
    j["memories"] = nlohmann::json::array();
    for (const auto& m : a.memories)
        j["memories"].push_back({{"name", m.name},
                                 {"kind", m.kind},
                                 {"reads", m.first},
                                 {"writes", m.second},
                                 {"bus_reads", m.bus_reads},
                                 {"bus_writes", m.bus_writes}});
    return j;
}

nlohmann::json energy_json(const RunReport::Energy& e) {
    const EnergyEstimate& x = e.estimate;
    nlohmann::json j;
    j["status"] = e.calibrated ? "calibrated" : "uncalibrated";
    j["basis"] = e.basis;
    j["voltage_v"] = e.voltage_v;
    j["cnn_clock_hz"] = e.cnn_clock_hz;
    j["phases"] = {
        {"weight_load_uj", x.weight_load_uj}, {"input_load_uj", x.input_load_uj}, {"inference_uj", x.inference_uj}};
    j["inference_cpu_sleep_uj"] = x.cpu_sleep_uj;
    j["layers"] = nlohmann::json::array();
    for (const LayerEnergy& l : x.layers)
        j["layers"].push_back({{"layer", l.layer},
                               {"compute_uj", l.compute_uj},
                               {"memory_uj", l.memory_uj},
                               {"quadrant_uj", l.quadrant_uj},
                               {"total_uj", l.total_uj()}});
    return j;
}

}  // namespace

void write_run_report(const RunReport& r, const std::string& path) {
    nlohmann::json j;
    j["result"] = r.result;
    j["kat"] = r.kat.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.kat);
    j["vector"] = r.vector;
    j["console"] = r.console;
    j["cnn_clock_hz"] = r.cnn_clock_hz;
    j["cnn_pipeline"] = r.cnn_pipeline;
    j["estimate_total"] = r.estimate_total ? nlohmann::json(*r.estimate_total) : nlohmann::json(nullptr);
    j["cnn_cycles"] = r.cnn_cycles;
    j["stall_cycles"] = r.stall_cycles;
    j["dropped_words"] = r.dropped_words;
    j["starved_fifos"] = r.starved_fifos;
    j["layers"] = nlohmann::json::array();
    for (const auto& l : r.layers) {
        nlohmann::json e{{"layer", l.layer}, {"macs", l.macs}};
        e["cycles"] = l.cycles ? nlohmann::json(*l.cycles) : nlohmann::json(nullptr);
        e["estimate"] = l.estimate ? nlohmann::json(*l.estimate) : nlohmann::json(nullptr);
        e["utilization"] = l.utilization ? nlohmann::json(*l.utilization) : nlohmann::json(nullptr);
        if (l.stream_span) e["stream_span"] = {l.stream_span->first, l.stream_span->second};
        j["layers"].push_back(e);
    }
    j["hazards"] = nlohmann::json::array();
    for (const auto& h : r.hazards)
        j["hazards"].push_back({{"layer", h.layer},
                                {"address", h.address},
                                {"cycle", h.cycle},
                                {"kind", h.kind},
                                {"count", h.count},
                                {"message", h.message}});
    j["warnings"] = nlohmann::json::array();
    for (const auto& w : r.warnings)
        j["warnings"].push_back({{"quadrant", w.quadrant},
                                 {"where", w.where},
                                 {"layer", w.layer},
                                 {"register", w.reg},
                                 {"kind", w.kind},
                                 {"count", w.count},
                                 {"message", w.message}});
    j["memory"] = nlohmann::json::array();
    for (const auto& m : r.memory) {
        nlohmann::json ranges = nlohmann::json::array();
        for (const auto& [first, last] : m.ranges) ranges.push_back({first, last});
        j["memory"].push_back({{"memory", m.memory},
                               {"instance", m.instance},
                               {"name", m.name},
                               {"words", m.words},
                               {"used", m.used},
                               {"ranges", ranges}});
    }
    j["activity"] = r.activity ? activity_json(*r.activity) : nlohmann::json(nullptr);
    j["energy"] = r.energy ? energy_json(*r.energy) : nlohmann::json(nullptr);
    j["phases"] = nlohmann::json::object();
    for (const auto& p : r.phases) j["phases"][p.name] = p.us ? nlohmann::json(*p.us) : nlohmann::json(nullptr);
    if (r.firmware_faults) {
        j["firmware_faults"] = nlohmann::json::array();
        for (const auto& f : *r.firmware_faults)
            j["firmware_faults"].push_back({{"kind", f.kind},
                                            {"site", f.site},
                                            {"function", f.function},
                                            {"object", f.object},
                                            {"object_size", f.object_size},
                                            {"first_address", f.first_address},
                                            {"extent_past_end", f.extent_past_end},
                                            {"count", f.count},
                                            {"first_us", f.first_us},
                                            {"first_instruction", f.first_instruction},
                                            {"message", f.message}});
    } else {
        j["firmware_faults"] = nullptr;
    }
    j["sim_time_us"] = r.sim_time_us;
    j["inference_wall_seconds"] =
        r.inference_wall_seconds ? nlohmann::json(*r.inference_wall_seconds) : nlohmann::json(nullptr);
    j["cpu_instructions"] = r.cpu_instructions;
    j["riscv_instructions"] = r.riscv_instructions ? nlohmann::json(*r.riscv_instructions) : nlohmann::json(nullptr);
    j["phases_core"] = r.phases_core;
    j["wall_seconds"] = r.wall_seconds;
    j["error"] = r.error ? nlohmann::json(*r.error) : nlohmann::json(nullptr);

    const std::string tmp = path + ".tmp" + std::to_string(getpid());
    {
        std::ofstream out(tmp);
        if (!out) throw std::runtime_error(path + ": cannot write (temporary file " + tmp + ")");
        // Console text is raw firmware output: replace invalid UTF-8 rather than throw.
        out << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
        if (!out) throw std::runtime_error(tmp + ": write failed");
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        std::remove(tmp.c_str());
        throw std::runtime_error(path + ": cannot rename " + tmp + " into place");
    }
}

}  // namespace ai8x
