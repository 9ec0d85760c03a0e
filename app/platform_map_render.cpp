// Text and JSON forms of a PlatformMap (`ai8xsim info`, `ai8xsim info --json`).
#include <algorithm>
#include <cstdio>

#include <spdlog/fmt/fmt.h>

#include "app/platform_map.h"

namespace ai8x {

namespace {

std::string range(uint64_t base, uint64_t size) { return fmt::format("0x{:08x}-0x{:08x}", base, base + size - 1); }

// Exact sizes only: "32 KiB" when a whole number of KiB, else "6912 B".
std::string bytes(uint64_t n) {
    if (n >= (1ull << 20) && n % (1ull << 20) == 0) return std::to_string(n >> 20) + " MiB";
    if (n >= 1024 && n % 1024 == 0) return std::to_string(n >> 10) + " KiB";
    return std::to_string(n) + " B";
}

// One printed line; columns after `left` are aligned across the whole map.
struct Row {
    std::string left, kind, range, size, detail;
};

void add_rows(const MapModule& m, unsigned depth, std::vector<Row>& rows) {
    const std::string indent(2 * depth, ' ');
    rows.push_back({indent + m.name, "[" + m.kind + "]", "", "", ""});
    const std::string inner(2 * (depth + 1), ' ');
    for (const MapPort& p : m.ports) rows.push_back({inner + p.name, "[" + p.kind + "]", "", "", ""});
    for (const MapWindow& w : m.windows) {
        std::string detail;
        if (w.registers >= 0) detail = std::to_string(w.registers) + (w.registers == 1 ? " register" : " registers");
        if (!w.instances.empty())
            detail = std::to_string(w.instances.size()) + (w.instances.size() == 1 ? " instance" : " instances");
        rows.push_back({inner + w.name, to_string(w.kind), range(w.base, w.size), bytes(w.size), detail});
        for (size_t i = 0; i < w.instances.size(); ++i) {
            const MapInstance& in = w.instances[i];
            rows.push_back({inner + "  [" + std::to_string(i) + "] " + in.owner, "", range(in.base, in.size), "",
                            std::to_string(in.words) + " x " + std::to_string(in.word_bits) +
                                " bit = " + bytes(in.storage_bytes())});
        }
    }
    for (const MapModule& c : m.children) add_rows(c, depth + 1, rows);
}

nlohmann::json module_json(const MapModule& m) {
    nlohmann::json j{{"name", m.name}, {"kind", m.kind}};
    j["ports"] = nlohmann::json::array();
    for (const MapPort& p : m.ports) j["ports"].push_back({{"name", p.name}, {"kind", p.kind}});
    j["windows"] = nlohmann::json::array();
    for (const MapWindow& w : m.windows) {
        nlohmann::json jw{{"name", w.name},
                          {"type", to_string(w.kind)},
                          {"base", w.base},
                          {"size", w.size},
                          {"range", range(w.base, w.size)}};
        if (w.registers >= 0) jw["registers"] = w.registers;
        if (w.kind == MapWindow::Kind::AcceleratorMemory) {
            jw["instances"] = nlohmann::json::array();
            for (const MapInstance& in : w.instances)
                jw["instances"].push_back({{"owner", in.owner},
                                           {"base", in.base},
                                           {"size", in.size},
                                           {"words", in.words},
                                           {"word_bits", in.word_bits},
                                           {"bytes", in.storage_bytes()}});
        }
        j["windows"].push_back(jw);
    }
    j["children"] = nlohmann::json::array();
    for (const MapModule& c : m.children) j["children"].push_back(module_json(c));
    return j;
}

// "wiring:" and one line per wire: its name, then writer -> reader(s).
std::string render_wiring(const std::vector<MapWire>& wires) {
    if (wires.empty()) return {};
    size_t name = 0, writer = 0;
    for (const MapWire& w : wires) {
        name = std::max(name, w.name.size());
        writer = std::max(writer, w.writer.size());
    }
    std::string out = "\nwiring (wire  writer -> readers):\n";
    for (const MapWire& w : wires) {
        std::string readers;
        for (const std::string& r : w.readers) readers += (readers.empty() ? "" : ", ") + r;
        out += fmt::format("  {:<{}}  {:<{}} -> {}\n", w.name, name, w.writer, writer, readers);
    }
    return out;
}

}  // namespace

std::string render_text(const PlatformMap& map) {
    std::vector<Row> rows;
    for (const MapModule& m : map.top) add_rows(m, 0, rows);
    size_t left = 0, kind = 0, size = 0;
    for (const Row& r : rows) {
        // Module and port rows carry their kind after the name; only window
        // rows (those with a range) set the width of the kind column.
        if (!r.range.empty()) kind = std::max(kind, r.kind.size());
        left = std::max(left, r.left.size());
        size = std::max(size, r.size.size());
    }
    std::string out = "device " + map.device + " (" + map.config_path + ")\n\n";
    char line[512];
    for (const Row& r : rows) {
        if (r.range.empty() && r.detail.empty()) {
            std::snprintf(line, sizeof line, "%-*s  %s\n", int(left), r.left.c_str(), r.kind.c_str());
        } else {
            std::snprintf(line, sizeof line, "%-*s  %-*s  %s  %*s  %s", int(left), r.left.c_str(), int(kind),
                          r.kind.c_str(), r.range.c_str(), int(size), r.size.c_str(), r.detail.c_str());
            std::string s = line;
            s.erase(s.find_last_not_of(' ') + 1);
            std::snprintf(line, sizeof line, "%s\n", s.c_str());
        }
        out += line;
    }
    return out + render_wiring(map.wires);
}

nlohmann::json render_json(const PlatformMap& map) {
    nlohmann::json j{{"device", map.device}, {"config", map.config_path}};
    j["modules"] = nlohmann::json::array();
    for (const MapModule& m : map.top) j["modules"].push_back(module_json(m));
    j["wires"] = nlohmann::json::array();
    for (const MapWire& w : map.wires)
        j["wires"].push_back({{"name", w.name}, {"writer", w.writer}, {"readers", w.readers}});
    return j;
}

}  // namespace ai8x
