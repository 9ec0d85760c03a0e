#include "app/run_report.h"

#include "app/atomic_file.h"

namespace ai8x {

namespace {

template <typename T>
nlohmann::json or_null(const std::optional<T>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

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

nlohmann::json layers_json(const std::vector<RunReport::Layer>& layers) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& l : layers) {
        nlohmann::json e{{"layer", l.layer}, {"macs", l.macs}};
        e["cycles"] = or_null(l.cycles);
        e["estimate"] = or_null(l.estimate);
        e["utilization"] = or_null(l.utilization);
        if (l.stream_span) e["stream_span"] = {l.stream_span->first, l.stream_span->second};
        out.push_back(e);
    }
    return out;
}

nlohmann::json findings_json(const RunReport& r) {
    nlohmann::json j;
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
    return j;
}

nlohmann::json memory_json(const std::vector<RunReport::MemoryUse>& memory) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& m : memory) {
        nlohmann::json ranges = nlohmann::json::array();
        for (const auto& [first, last] : m.ranges) ranges.push_back({first, last});
        out.push_back({{"memory", m.memory},
                       {"instance", m.instance},
                       {"name", m.name},
                       {"words", m.words},
                       {"used", m.used},
                       {"ranges", ranges}});
    }
    return out;
}

nlohmann::json firmware_faults_json(const std::optional<std::vector<RunReport::FirmwareFault>>& faults) {
    if (!faults) return nullptr;
    nlohmann::json out = nlohmann::json::array();
    for (const auto& f : *faults)
        out.push_back({{"kind", f.kind},
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
    return out;
}

}  // namespace

nlohmann::json run_report_json(const RunReport& r) {
    nlohmann::json j = findings_json(r);
    j["result"] = r.result;
    j["kat"] = r.kat.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.kat);
    j["vector"] = r.vector;
    j["console"] = r.console;
    j["cnn_clock_hz"] = r.cnn_clock_hz;
    j["cnn_pipeline"] = r.cnn_pipeline;
    j["estimate_total"] = or_null(r.estimate_total);
    j["cnn_cycles"] = r.cnn_cycles;
    j["stall_cycles"] = r.stall_cycles;
    j["dropped_words"] = r.dropped_words;
    j["starved_fifos"] = r.starved_fifos;
    j["layers"] = layers_json(r.layers);
    j["memory"] = memory_json(r.memory);
    j["activity"] = r.activity ? activity_json(*r.activity) : nlohmann::json(nullptr);
    j["energy"] = r.energy ? energy_json(*r.energy) : nlohmann::json(nullptr);
    j["phases"] = nlohmann::json::object();
    for (const auto& p : r.phases) j["phases"][p.name] = or_null(p.us);
    j["firmware_faults"] = firmware_faults_json(r.firmware_faults);
    j["sim_time_us"] = r.sim_time_us;
    j["inference_wall_seconds"] = or_null(r.inference_wall_seconds);
    j["cpu_instructions"] = r.cpu_instructions;
    j["riscv_instructions"] = or_null(r.riscv_instructions);
    j["phases_core"] = r.phases_core;
    j["wall_seconds"] = r.wall_seconds;
    j["error"] = or_null(r.error);
    return j;
}

void write_json_file(const nlohmann::json& document, const std::string& path) {
    write_file_atomically(path, [&](std::ostream& out) {
        // Console text is raw firmware output: replace invalid UTF-8 rather than throw.
        out << document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    });
}

void write_run_report(const RunReport& report, const std::string& path) {
    write_json_file(run_report_json(report), path);
}

}  // namespace ai8x
