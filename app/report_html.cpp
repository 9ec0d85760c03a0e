#include "app/report_html.h"

#include <algorithm>
#include <limits>
#include <cmath>
#include <sstream>
#include <vector>

#include <optional>

#include <spdlog/fmt/fmt.h>

#include "app/report_energy.h"
#include "app/report_heatmap.h"

namespace ai8x {

std::string html_escape(const std::string& s) {
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&#39;"; break;
            default: out += c;
        }
    }
    return out;
}

namespace {

using nlohmann::json;

std::string escape(const std::string& s) { return html_escape(s); }

const json& need(const json& j, const char* key, const std::string& where) {
    const auto it = j.find(key);
    if (it == j.end()) throw ReportInputError(where + ": missing field '" + key + "'");
    return *it;
}

std::optional<uint64_t> opt_u64(const json& j, const char* key) {
    const auto it = j.find(key);
    if (it == j.end() || !it->is_number()) return std::nullopt;
    return report_count(*it, key);
}

// One layer row as the page draws it.
struct LayerRow {
    int layer = 0;
    std::optional<uint64_t> cycles, estimate;
    uint64_t macs = 0;
    std::optional<double> utilization;
    bool streaming = false;
    uint64_t start = 0, end = 0;  // position on the timeline, CNN cycles
};

std::vector<LayerRow> layer_rows(const json& run) {
    const json& layers = need(run, "layers", "report");
    if (!layers.is_array()) throw ReportInputError("report: field 'layers' must be an array");
    std::vector<LayerRow> rows;
    uint64_t cursor = 0, chain_end = 0;
    for (size_t i = 0; i < layers.size(); ++i) {
        const json& l = layers[i];
        const std::string where = "layers[" + std::to_string(i) + "]";
        LayerRow r;
        r.layer = report_index(need(l, "layer", where), where + ".layer");
        r.cycles = opt_u64(l, "cycles");
        r.estimate = opt_u64(l, "estimate");
        r.macs = opt_u64(l, "macs").value_or(0);
        if (auto u = l.find("utilization"); u != l.end() && u->is_number()) r.utilization = u->get<double>();
        // Streaming layers run interleaved: draw each over its span of the chain.
        if (auto span = l.find("stream_span"); span != l.end() && span->is_array() && span->size() == 2) {
            r.streaming = true;
            r.start = report_count((*span)[0], where + ".stream_span");
            r.end = std::max(r.start, report_count((*span)[1], where + ".stream_span"));
            chain_end = std::max(chain_end, r.end);
            cursor = std::max(cursor, chain_end);
        } else {
            r.start = cursor;
            r.end = cursor + r.cycles.value_or(0);
            cursor = r.end;
        }
        rows.push_back(r);
    }
    return rows;
}

std::string fmt_opt(const std::optional<uint64_t>& v) { return v ? fmt::format("{}", *v) : "&ndash;"; }

std::string error_pct(const LayerRow& r) {
    if (!r.cycles || !r.estimate || *r.estimate == 0) return "&ndash;";
    return fmt::format("{:+.2f}%", 100.0 * (double(*r.cycles) - double(*r.estimate)) / double(*r.estimate));
}

// The opening tag every chart of the report shares.
std::string svg_open(const char* css_class, const char* label, int width, int height) {
    return fmt::format(
        "<svg class=\"{}\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
        "role=\"img\" aria-label=\"{}\">\n",
        css_class, width, height, label);
}

// Per-layer timeline: one lane per layer, bar from start to end.
std::string timeline_svg(const std::vector<LayerRow>& rows) {
    uint64_t span = 1;
    for (const auto& r : rows) span = std::max(span, r.end);
    const int lane = 22, left = 70, width = 900, height = int(rows.size()) * lane + 40;
    std::ostringstream s;
    s << svg_open("timeline", "per-layer timeline", left + width + 20, height);
    for (size_t i = 0; i < rows.size(); ++i) {
        const auto& r = rows[i];
        const double x0 = left + width * double(r.start) / double(span);
        const double w = std::max(1.0, width * double(r.end - r.start) / double(span));
        const int y = int(i) * lane + 10;
        s << fmt::format("<text x=\"4\" y=\"{}\" class=\"lbl\">layer {}</text>", y + 14, r.layer);
        s << fmt::format(
            "<rect x=\"{:.1f}\" y=\"{}\" width=\"{:.1f}\" height=\"{}\" class=\"{}\">"
            "<title>layer {}: cycles {}..{}</title></rect>\n",
            x0, y, w, lane - 6, r.streaming ? "bar stream" : "bar", r.layer, r.start, r.end);
    }
    const int axis_y = int(rows.size()) * lane + 24;
    s << fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"axis\"/>", left, axis_y, left + width,
                     axis_y);
    s << fmt::format("<text x=\"{}\" y=\"{}\" class=\"lbl\">0</text>", left, axis_y + 14);
    s << fmt::format("<text x=\"{}\" y=\"{}\" class=\"lbl\" text-anchor=\"end\">{} cycles</text>", left + width,
                     axis_y + 14, span);
    s << "</svg>\n";
    return s.str();
}

// Cycles (ours) beside the generator's estimate, two bars per layer.
std::string cycles_vs_estimate_svg(const std::vector<LayerRow>& rows) {
    uint64_t top = 1;
    for (const auto& r : rows) top = std::max({top, r.cycles.value_or(0), r.estimate.value_or(0)});
    const int group = 30, left = 70, width = 900, height = int(rows.size()) * group + 30;
    std::ostringstream s;
    s << svg_open("estimate", "cycles versus estimate", left + width + 20, height);
    for (size_t i = 0; i < rows.size(); ++i) {
        const auto& r = rows[i];
        const int y = int(i) * group + 6;
        s << fmt::format("<text x=\"4\" y=\"{}\" class=\"lbl\">layer {}</text>", y + 16, r.layer);
        if (r.cycles)
            s << fmt::format(
                "<rect x=\"{}\" y=\"{}\" width=\"{:.1f}\" height=\"11\" class=\"ours\">"
                "<title>ai8xsim: {} cycles</title></rect>",
                left, y, std::max(1.0, width * double(*r.cycles) / double(top)), *r.cycles);
        if (r.estimate)
            s << fmt::format(
                "<rect x=\"{}\" y=\"{}\" width=\"{:.1f}\" height=\"11\" class=\"theirs\">"
                "<title>generator estimate: {} cycles</title></rect>",
                left, y + 12, std::max(1.0, width * double(*r.estimate) / double(top)), *r.estimate);
        s << "\n";
    }
    s << fmt::format(
        "<text x=\"{}\" y=\"{}\" class=\"lbl\"><tspan class=\"ours-t\">&#9632; ai8xsim</tspan> "
        "<tspan class=\"theirs-t\">&#9632; generator estimate</tspan> (full width = {} cycles)</text>\n",
        left, height - 6, top);
    s << "</svg>\n";
    return s.str();
}

// Memory map: one row per memory instance (word address grows left to right),
// written runs shaded, so a glance shows which instances and offsets a network uses.
std::string memory_svg(const json& memory) {
    const int row_h = 9, left = 110, width = 860;
    std::ostringstream s;
    s << svg_open("memory", "memory occupancy", left + width + 90, int(memory.size()) * row_h + 6);
    for (size_t i = 0; i < memory.size(); ++i) {
        const json& m = memory[i];
        const std::string kind = need(m, "memory", "memory[]").get<std::string>();
        const int instance = report_index(need(m, "instance", "memory[]"), "memory[].instance");
        const uint64_t words = std::max<uint64_t>(1, report_count(need(m, "words", "memory[]"), "memory[].words"));
        const uint64_t used = report_count(need(m, "used", "memory[]"), "memory[].used");
        const int y = int(i) * row_h + 3;
        // Hierarchical instance name when the run JSON has one (older runs: kind and number).
        const std::string label = m.value("name", std::string()).empty() ? kind + " " + std::to_string(instance)
                                                                         : m.at("name").get<std::string>();
        s << fmt::format("<text x=\"4\" y=\"{}\" class=\"mlbl\">{}</text>", y + 7, escape(label))
          << fmt::format(
                 "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" class=\"cell\">"
                 "<title>{} {}: {} of {} words used</title></rect>",
                 left, y, width, row_h - 1, escape(kind), instance, used, words);
        for (const auto& r : need(m, "ranges", "memory[]")) {
            const double a = double(report_count(r.at(0), "memory[].ranges")) / double(words);
            const double b = (double(report_count(r.at(1), "memory[].ranges")) + 1) / double(words);
            s << fmt::format("<rect x=\"{:.2f}\" y=\"{}\" width=\"{:.2f}\" height=\"{}\" class=\"used\"/>",
                             left + a * width, y, std::max(0.5, (b - a) * width), row_h - 1);
        }
        s << fmt::format("<text x=\"{}\" y=\"{}\" class=\"mlbl\">{}/{}</text>\n", left + width + 4, y + 7, used, words);
    }
    s << "</svg>\n";
    return s.str();
}

const char* const kStyle = R"(
body{font-family:system-ui,sans-serif;margin:24px;color:#1b1f24;background:#fff}
h1{font-size:20px;margin:0 0 4px} h2{font-size:16px;margin:24px 0 8px}
table{border-collapse:collapse;font-size:13px} td,th{border:1px solid #ccd;padding:3px 8px;text-align:right}
th{background:#eef} td.l,th.l{text-align:left}
.pass{color:#0a7d28;font-weight:bold} .fail,.error{color:#b00020;font-weight:bold}
.lbl{font-size:11px;fill:#333} .mlbl{font-size:8px;fill:#333} .axis{stroke:#555}
.bar{fill:#3b6fb6} .bar.stream{fill:#e08a1e} .ours{fill:#3b6fb6} .theirs{fill:#9aa5b1}
.ours-t{fill:#3b6fb6} .theirs-t{fill:#9aa5b1}
.cell{fill:#f2f4f7;stroke:#c9ced6} .used{fill:#2f9e6e} .heat{stroke:#fff;stroke-width:0.5}
.e-compute{fill:#7b4fb6} .e-memory{fill:#2f9e6e} .e-quadrant{fill:#3b6fb6}
.e-compute-t{color:#7b4fb6} .e-memory-t{color:#2f9e6e} .e-quadrant-t{color:#3b6fb6}
)";

}  // namespace

uint64_t report_count(const json& value, const std::string& where) {
    if (value.is_number_unsigned()) return value.get<uint64_t>();
    if (value.is_number_integer() && value.get<int64_t>() >= 0) return uint64_t(value.get<int64_t>());
    throw ReportInputError(where + ": expected a whole number of at least 0, found " + value.dump());
}

int report_index(const json& value, const std::string& where) {
    const uint64_t n = report_count(value, where);
    if (n > uint64_t(std::numeric_limits<int>::max()))
        throw ReportInputError(where + ": " + std::to_string(n) + " is too large for a layer or instance number");
    return int(n);
}

std::string render_report_html(const json& run, const std::string& title) {
    if (!run.is_object()) throw ReportInputError("report: expected a JSON object at the top level");
    const std::string result = need(run, "result", "report").get<std::string>();
    const uint64_t total = report_count(need(run, "cnn_cycles", "report"), "report.cnn_cycles");
    const double clock = run.value("cnn_clock_hz", 0.0);
    const std::vector<LayerRow> rows = layer_rows(run);

    std::ostringstream h;
    h << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>ai8xsim report: " << escape(title)
      << "</title>\n<style>" << kStyle << "</style></head><body>\n";
    h << "<h1>ai8xsim run report: " << escape(title) << "</h1>\n<p>Verdict <span class=\"" << escape(result) << "\">"
      << escape(result) << "</span> &middot; " << total << " CNN cycles";
    if (clock > 0)
        h << fmt::format(" &middot; CNN clock {:.3f} MHz &middot; {:.1f} &micro;s", clock / 1e6, total / clock * 1e6);
    if (auto est = opt_u64(run, "estimate_total")) h << " &middot; generator estimate " << *est << " cycles";
    h << fmt::format(" &middot; simulated {:.1f} &micro;s", run.value("sim_time_us", 0.0));
    // Host time of the inference, so the page shows simulation speed next to silicon time.
    if (auto w = run.find("inference_wall_seconds"); w != run.end() && w->is_number())
        h << fmt::format(" &middot; inference took {:.2f} ms wall", w->get<double>() * 1e3);
    h << "</p>\n";
    if (auto err = run.find("error"); err != run.end() && err->is_string())
        h << "<p class=\"error\">" << escape(err->get<std::string>()) << "</p>\n";

    h << "<section id=\"timeline\"><h2>Per-layer timeline</h2>\n"
      << "<p>Bars in CNN cycles from the start of the inference; streaming layers (orange) overlap.</p>\n"
      << timeline_svg(rows) << "</section>\n";

    h << "<section id=\"estimate\"><h2>Cycles versus the generator's estimate</h2>\n" << cycles_vs_estimate_svg(rows);
    h << "<table><tr><th>layer</th><th>cycles</th><th>estimate</th><th>difference</th><th>MACs</th>"
         "<th>utilization</th></tr>\n";
    for (const auto& r : rows)
        h << "<tr class=\"layer-row\"><td>" << r.layer << (r.streaming ? " (stream)" : "") << "</td><td>"
          << fmt_opt(r.cycles) << "</td><td>" << fmt_opt(r.estimate) << "</td><td>" << error_pct(r) << "</td><td>"
          << r.macs << "</td><td>"
          << (r.utilization ? fmt::format("{:.1f}%", 100.0 * *r.utilization) : std::string("&ndash;"))
          << "</td></tr>\n";
    h << "</table></section>\n";

    if (auto mem = run.find("memory"); mem != run.end() && mem->is_array() && !mem->empty())
        h << "<section id=\"memory\"><h2>Memory map occupancy</h2>\n"
          << "<p>One row per memory instance; green = words written (by the CPU, a kernel load, a FIFO or a layer) "
             "since reset.</p>\n"
          << memory_svg(*mem) << "</section>\n";

    if (auto act = run.find("activity"); act != run.end() && act->is_object())
        h << "<section id=\"activity\"><h2>Processor activity</h2>\n"
          << "<p>Multiply-accumulates of each processor (rows) in each layer (columns); darker = more. "
             "Hover a cell for the count.</p>\n"
          << activity_heatmap_svg(*act) << "</section>\n";

    if (auto ph = run.find("phases"); ph != run.end() && ph->is_object() && !ph->empty()) {
        h << "<section id=\"phases\"><h2>Firmware phases</h2><table><tr><th "
             "class=\"l\">phase</th><th>&micro;s</th></tr>\n";
        // In the order main() runs them (JSON objects come back sorted by name),
        // then any others; a phase the firmware does not have shows a dash.
        std::vector<std::string> order = {"weights", "bias", "configure", "input", "inference", "unload_check"};
        for (const auto& item : ph->items())
            if (std::find(order.begin(), order.end(), item.key()) == order.end()) order.push_back(item.key());
        for (const std::string& name : order) {
            const auto us = ph->find(name);
            if (us == ph->end()) continue;
            h << "<tr class=\"phase-row\"><td class=\"l\">" << escape(name) << "</td><td>"
              << (us->is_number() ? fmt::format("{:.1f}", us->get<double>()) : std::string("&ndash;"))
              << "</td></tr>\n";
        }
        h << "</table></section>\n";
    }
    if (auto en = run.find("energy"); en != run.end() && en->is_object()) h << energy_section_html(*en);
    for (const char* key : {"hazards", "warnings"}) {
        auto it = run.find(key);
        if (it == run.end() || !it->is_array() || it->empty()) continue;
        h << "<section id=\"" << key << "\"><h2>" << (key[0] == 'h' ? "Streaming hazards" : "Programming warnings")
          << " (" << it->size() << ")</h2><ul>\n";
        for (const auto& e : *it) h << "<li>" << escape(e.value("message", e.dump())) << "</li>\n";
        h << "</ul></section>\n";
    }
    h << "</body></html>\n";
    return h.str();
}

}  // namespace ai8x
