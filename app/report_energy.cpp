#include "app/report_energy.h"

#include <algorithm>
#include <sstream>

#include <spdlog/fmt/fmt.h>

#include "app/report_html.h"

namespace ai8x {

namespace {

using nlohmann::json;

double number(const json& j, const char* key, const std::string& where) {
    const auto it = j.find(key);
    if (it == j.end() || !it->is_number()) throw ReportInputError(where + ": missing number '" + key + "'");
    return it->get<double>();
}

// The three parts of a layer's energy, in the order they are stacked.
constexpr const char* kParts[] = {"compute_uj", "memory_uj", "quadrant_uj"};
constexpr const char* kPartClass[] = {"e-compute", "e-memory", "e-quadrant"};

std::string layer_bars_svg(const json& layers) {
    double widest = 0;
    for (const auto& l : layers) widest = std::max(widest, number(l, "total_uj", "energy.layers[]"));
    const int label_w = 70, bar_w = 560, row_h = 16, top = 4;
    std::ostringstream s;
    s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << label_w + bar_w + 90 << "\" height=\""
      << top + row_h * int(layers.size()) + 4 << "\">\n";
    int y = top;
    for (const auto& l : layers) {
        const int layer = l.value("layer", -1);
        s << "<text class=\"lbl\" x=\"0\" y=\"" << y + 11 << "\">layer " << layer << "</text>";
        double x = label_w;
        for (int p = 0; p < 3; ++p) {
            const double uj = number(l, kParts[p], "energy.layers[]");
            const double w = widest > 0 ? uj / widest * bar_w : 0;
            s << fmt::format(
                "<rect class=\"{}\" x=\"{:.1f}\" y=\"{}\" width=\"{:.1f}\" height=\"{}\"><title>layer {} "
                "{}: {:.3f} &micro;J</title></rect>",
                kPartClass[p], x, y, w, row_h - 3, layer, kParts[p], uj);
            x += w;
        }
        s << fmt::format("<text class=\"lbl\" x=\"{:.1f}\" y=\"{}\">{:.2f} &micro;J</text>\n", x + 4, y + 11,
                         number(l, "total_uj", "energy.layers[]"));
        y += row_h;
    }
    s << "</svg>\n";
    return s.str();
}

}  // namespace

std::string energy_section_html(const json& e) {
    const std::string status = e.value("status", std::string("uncalibrated"));
    const json& phases = e.contains("phases") ? e["phases"] : throw ReportInputError("energy: missing 'phases'");
    std::ostringstream h;
    h << "<section id=\"energy\"><h2>Energy per inference"
      << (status == "calibrated" ? "" : " <span class=\"fail\">(uncalibrated)</span>") << "</h2>\n";
    h << "<p>" << html_escape(e.value("basis", std::string()))
      << fmt::format("; core supply {:.2f} V", e.value("voltage_v", 0.0))
      << fmt::format(", CNN clock {:.1f} MHz", e.value("cnn_clock_hz", 0.0) / 1e6) << ". docs/energy-model.md.</p>\n";
    h << "<table><tr><th class=\"l\">phase</th><th>&micro;J</th></tr>\n";
    for (const auto& [key, label] : {std::pair<const char*, const char*>{"weight_load_uj", "weight load"},
                                     {"input_load_uj", "input load"},
                                     {"inference_uj", "inference"}})
        h << "<tr class=\"energy-row\"><td class=\"l\">" << label << "</td><td>"
          << fmt::format("{:.2f}", number(phases, key, "energy.phases")) << "</td></tr>\n";
    h << "</table>\n";
    if (const auto l = e.find("layers"); l != e.end() && l->is_array() && !l->empty())
        h << "<p>Per layer: <span class=\"e-compute-t\">compute</span>, <span class=\"e-memory-t\">memory "
             "accesses</span>, <span class=\"e-quadrant-t\">busy quadrants</span> (hover for &micro;J).</p>\n"
          << layer_bars_svg(*l);
    h << "</section>\n";
    return h.str();
}

}  // namespace ai8x
