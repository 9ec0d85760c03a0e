#include "app/report_heatmap.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include <spdlog/fmt/fmt.h>

#include "app/report_html.h"

namespace ai8x {

namespace {

const nlohmann::json& field(const nlohmann::json& j, const char* key, const char* where) {
    const auto it = j.find(key);
    if (it == j.end()) throw ReportInputError(std::string(where) + ": missing field '" + key + "'");
    return *it;
}

// Light to dark blue on a square-root scale (one big first layer would wash
// out the others on a linear one); zero stays grey so idle processors stand out.
std::string shade(uint64_t value, uint64_t max) {
    if (value == 0 || max == 0) return "#eef0f3";
    const double t = std::clamp(std::sqrt(double(value) / double(max)), 0.0, 1.0);
    const auto mix = [t](int from, int to) { return int(from + (to - from) * t + 0.5); };
    return fmt::format("#{:02x}{:02x}{:02x}", mix(0xd6, 0x08), mix(0xe6, 0x30), mix(0xf5, 0x6b));
}

}  // namespace

std::string activity_heatmap_svg(const nlohmann::json& activity) {
    const nlohmann::json& layers = field(activity, "layers", "activity");
    const nlohmann::json& procs = field(activity, "processors", "activity");
    if (!layers.is_array() || !procs.is_array())
        throw ReportInputError("activity: 'layers' and 'processors' must be arrays");
    uint64_t max = 0;
    for (const auto& p : procs)
        for (const auto& v : field(p, "macs", "activity.processors[]"))
            max = std::max(max, report_count(v, "activity.processors[].macs"));

    const int cell_w = std::clamp(760 / std::max<int>(1, int(layers.size())), 6, 40), cell_h = 7;
    const int left = 70, top = 16;
    const int width = left + cell_w * int(layers.size()) + 10, height = top + cell_h * int(procs.size()) + 4;
    std::ostringstream s;
    s << fmt::format(
        "<svg class=\"heatmap\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
        "role=\"img\" aria-label=\"processor activity by layer\">\n",
        width, height);
    for (size_t c = 0; c < layers.size(); ++c)
        s << fmt::format("<text x=\"{}\" y=\"11\" class=\"mlbl\" text-anchor=\"middle\">{}</text>",
                         left + int(c) * cell_w + cell_w / 2, report_index(layers[c], "activity.layers"));
    for (size_t r = 0; r < procs.size(); ++r) {
        const std::string name = field(procs[r], "name", "activity.processors[]").get<std::string>();
        const nlohmann::json& macs = field(procs[r], "macs", "activity.processors[]");
        const int y = top + int(r) * cell_h;
        // Label every fourth processor (the data memory groups) to keep the axis readable.
        if (r % 4 == 0)
            s << fmt::format("<text x=\"{}\" y=\"{}\" class=\"mlbl\" text-anchor=\"end\">{}</text>", left - 3,
                             y + cell_h, html_escape(name));
        for (size_t c = 0; c < layers.size() && c < macs.size(); ++c) {
            const uint64_t v = report_count(macs[c], "activity.processors[].macs");
            s << fmt::format(
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" class=\"heat\" fill=\"{}\">"
                "<title>{} layer {}: {} MACs</title></rect>",
                left + int(c) * cell_w, y, cell_w, cell_h, shade(v, max), html_escape(name),
                report_index(layers[c], "activity.layers"), v);
        }
        s << "\n";
    }
    s << "</svg>\n";
    return s.str();
}

}  // namespace ai8x
