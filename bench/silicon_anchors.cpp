#include "bench/silicon_anchors.h"

#include "bench/child_run.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <stdexcept>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tlm/yaml_reader.h"

namespace fs = std::filesystem;

namespace ai8x::bench {

namespace {

std::string text(const YAML::Node& entry, const char* key, const std::string& where, bool required) {
    const YAML::Node n = entry[key];
    if (!n || n.IsNull()) {
        if (required) throw std::runtime_error(where + ": missing '" + key + "'");
        return {};
    }
    if (!n.IsScalar()) throw std::runtime_error(where + ": '" + key + "' must be a single value");
    return n.as<std::string>();
}

double number(const YAML::Node& entry, const char* key, const std::string& where) {
    const std::string s = text(entry, key, where, true);
    try {
        std::size_t used = 0;
        const double v = std::stod(s, &used);
        if (used == s.size() && v > 0) return v;
    } catch (const std::exception&) {
    }
    throw std::runtime_error(where + ": '" + key + "' must be a positive number, not '" + s + "'");
}

std::string find_vector(const std::string& name, const std::vector<std::string>& dirs) {
    for (const auto& d : dirs) {
        const fs::path p = fs::path(d) / name;
        std::error_code ec;
        if (fs::is_directory(p, ec)) return p.string();
    }
    return {};
}

}  // namespace

std::vector<Anchor> load_anchors(const std::string& path) {
    const YAML::Node root = load_yaml_file(path);
    const YAML::Node list = root["anchors"];
    if (!list || !list.IsSequence()) throw std::runtime_error(path + ": expected a list 'anchors:'");
    std::vector<Anchor> anchors;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const YAML::Node e = list[i];
        const std::string where =
            path + ": anchor " + std::to_string(i + 1) + " (line " + std::to_string(e.Mark().line + 1) + ")";
        if (!e.IsMap()) throw std::runtime_error(where + ": expected a mapping");
        Anchor a;
        a.name = text(e, "name", where, true);
        a.vector = text(e, "vector", where, false);
        a.device = text(e, "device", where, true);
        a.timed = text(e, "timed", where, true);
        if (a.timed != "inference" && a.timed != "load+inference")
            throw std::runtime_error(where + ": 'timed' must be inference or load+inference, not '" + a.timed + "'");
        a.silicon_us = number(e, "silicon_us", where);
        if (e["tolerance_pct"]) a.tolerance_pct = number(e, "tolerance_pct", where);
        a.board = text(e, "board", where, false);
        a.clocks = text(e, "clocks", where, false);
        a.source = text(e, "source", where, true);
        anchors.push_back(a);
    }
    return anchors;
}

std::optional<Stopwatch> find_stopwatch(const std::string& console) {
    static const std::regex line(R"(Approximate (data loading and )?inference time: (\d+) us)");
    std::smatch m;
    if (!std::regex_search(console, m, line)) return std::nullopt;
    return Stopwatch{std::stod(m[2]), m[1].matched};
}

std::vector<AnchorResult> run_anchors(const std::vector<Anchor>& anchors, const std::vector<std::string>& vector_dirs,
                                      const std::string& binary) {
    const fs::path json = fs::temp_directory_path() / ("ai8xsim-anchor-" + std::to_string(getpid()) + ".json");
    std::vector<AnchorResult> rows;
    for (const Anchor& a : anchors) {
        AnchorResult r;
        r.anchor = &a;
        if (a.vector.empty()) {
            r.result = "no vector";
            rows.push_back(r);
            continue;
        }
        r.vector_path = find_vector(a.vector, vector_dirs);
        if (r.vector_path.empty()) {
            // An anchor with a tolerance is a check: one that could not run failed.
            r.result = "not found";
            r.ok = !a.tolerance_pct;
            rows.push_back(r);
            continue;
        }
        fs::remove(json);
        const int rc = run_child({binary, "run", r.vector_path, "--quiet", "--json", json.string()}).status;
        std::ifstream in(json);
        const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
        r.ok = false;
        if (j.is_discarded() || !j.is_object()) {
            r.result = "error (exit " + std::to_string(rc) + ", no JSON)";
        } else {
            r.result = j.value("result", std::string("error"));
            const auto sw = find_stopwatch(j.value("console", std::string()));
            if (!sw) {
                r.result += ", no stopwatch line";
            } else if (sw->includes_loading != (a.timed == "load+inference")) {
                r.result += ", stopwatch times " + std::string(sw->includes_loading ? "load+inference" : "inference");
            } else {
                r.ours_us = sw->us;
                r.error_pct = (sw->us - a.silicon_us) / a.silicon_us * 100.0;
                r.ok = r.result == "pass" && (!a.tolerance_pct || std::fabs(*r.error_pct) <= *a.tolerance_pct);
            }
        }
        rows.push_back(r);
    }
    fs::remove(json);
    return rows;
}

void print_anchor_table(const std::vector<AnchorResult>& rows) {
    std::printf("%-22s %-8s %-14s %10s %10s %8s %6s %-5s %s\n", "anchor", "device", "timed", "silicon_us", "ours_us",
                "error%", "tol%", "", "vector / result");
    for (const AnchorResult& r : rows) {
        const Anchor& a = *r.anchor;
        char ours[32] = "-", error[32] = "-", tol[32] = "-";
        if (r.ours_us) std::snprintf(ours, sizeof ours, "%.0f", *r.ours_us);
        if (r.error_pct) std::snprintf(error, sizeof error, "%+.2f", *r.error_pct);
        if (a.tolerance_pct) std::snprintf(tol, sizeof tol, "%g", *a.tolerance_pct);
        // No tolerance: the anchor is only reported ("ran"); no time: not run, or a MISS if it should have been.
        const char* verdict = !r.ours_us ? (r.ok ? "-" : "MISS") : !r.ok ? "MISS" : a.tolerance_pct ? "PASS" : "ran";
        const std::string where = a.vector.empty() ? "(no vector)" : a.vector + " / " + r.result;
        std::printf("%-22s %-8s %-14s %10.0f %10s %8s %6s %-5s %s\n", a.name.c_str(), a.device.c_str(), a.timed.c_str(),
                    a.silicon_us, ours, error, tol, verdict, where.c_str());
    }
}

}  // namespace ai8x::bench
