#include "testbench/conformance/cycle_stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include <nlohmann/json.hpp>

namespace ai8x::conformance {

namespace {

// Signed relative error; a zero estimate is exact only against zero.
double relative_error(uint64_t ours, uint64_t theirs) {
    if (theirs == 0) return ours == 0 ? 0.0 : std::numeric_limits<double>::infinity();
    return (static_cast<double>(ours) - static_cast<double>(theirs)) / static_cast<double>(theirs);
}

// Exactly on the limit counts as within it; the slack only absorbs rounding
// of the division (e.g. 102 against 100 at 2 %).
bool within(double error, double tolerance) { return std::fabs(error) <= tolerance + 1e-12; }

// A count is a non-negative integer (the parser stores those as unsigned,
// a json built in code may hold them as signed).
bool is_count(const nlohmann::json& j) {
    return j.is_number_unsigned() || (j.is_number_integer() && j.get<int64_t>() >= 0);
}

std::optional<uint64_t> optional_count(const nlohmann::json& j, const char* key, bool& ok) {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) return std::nullopt;
    if (!is_count(*it)) ok = false;
    return ok ? std::optional<uint64_t>(it->get<uint64_t>()) : std::nullopt;
}

std::string percent(double error) {
    if (std::isinf(error)) return "inf %";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.2f %%", 100.0 * error);
    return buf;
}

std::string ratio_text(uint64_t ours, uint64_t theirs) {
    if (theirs == 0) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(ours) / static_cast<double>(theirs));
    return buf;
}

std::string with_verdict(const VectorCycles& v) { return v.name + " (" + v.verdict + ")"; }

std::string join(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
    return out;
}

void add_streaming_vector(const VectorCycles& v, CycleStats& s) {
    if (!v.has_data) {
        s.streaming_missing.push_back(with_verdict(v));
        return;
    }
    StreamingVectorRow row{v.name, 0, 0, 0, v.stall_cycles, v.cnn_cycles, v.estimate_total};
    for (const auto& l : v.layers) {
        if (!l.ours || !l.theirs) {
            s.streaming_missing.push_back(v.name + " layer " + std::to_string(l.layer) + ": no figure");
            continue;
        }
        if (!l.streaming) {
            s.chain_free_layers++;
            if (*l.ours == *l.theirs) s.chain_free_exact++;
            continue;
        }
        row.chain_layers++;
        row.chain_ours += *l.ours;
        row.chain_theirs += *l.theirs;
        if (*l.theirs > 0)
            s.streaming_layer_ratios.push_back(static_cast<double>(*l.ours) / static_cast<double>(*l.theirs));
    }
    s.streaming_rows.push_back(row);
}

void add_judged_vector(const VectorCycles& v, const TimingCriteria& c, CycleStats& s) {
    if (!v.has_data) {
        (v.expected_failure ? s.missing_expected : s.missing).push_back(with_verdict(v));
        return;
    }
    s.judged_vectors++;
    for (const auto& l : v.layers) {
        const std::string where = v.name + " layer " + std::to_string(l.layer);
        if (!l.ours || !l.theirs) {
            s.layers_without_figure.push_back(where + (l.ours ? ": no estimate" : ": no cycle count"));
            continue;
        }
        const WorstLayer w{v.name, l.layer, *l.ours, *l.theirs, relative_error(*l.ours, *l.theirs)};
        s.layers_compared++;
        if (*l.ours == *l.theirs) s.layers_exact++;
        if (within(w.error, c.layer_tolerance))
            s.layers_within++;
        else
            s.layers_outside.push_back(w);
        if (!s.worst_layer || std::fabs(w.error) > std::fabs(s.worst_layer->error)) s.worst_layer = w;
    }
    if (v.layers.empty()) s.layers_without_figure.push_back(v.name + ": no layers in the run result");
    // The estimate counts the accelerator's work only; time spent waiting
    // for FIFO input words is the CPU's pace, reported beside it.
    const uint64_t work = v.cnn_cycles - std::min(v.stall_cycles, v.cnn_cycles);
    if (v.kind == "fifo") s.fifo_rows.push_back({v.name, work, v.stall_cycles, v.cnn_cycles, v.estimate_total});
    if (!v.estimate_total) {
        s.layers_without_figure.push_back(v.name + ": no total estimate");
        return;
    }
    const WorstTotal t{v.name, work, *v.estimate_total, relative_error(work, *v.estimate_total)};
    s.totals_compared++;
    if (within(t.error, c.total_tolerance))
        s.totals_within++;
    else
        s.totals_outside.push_back(t);
    if (!s.worst_total || std::fabs(t.error) > std::fabs(s.worst_total->error)) s.worst_total = t;
}

}  // namespace

std::optional<std::string> read_run_cycles(const nlohmann::json& run, VectorCycles& v) {
    v.has_data = false;
    v.layers.clear();
    if (!run.is_object()) return "not a JSON object";
    for (const char* key : {"cnn_cycles", "stall_cycles"})
        if (!run.contains(key) || !is_count(run[key])) return std::string("field '") + key + "' missing or not a count";
    bool ok = true;
    const auto total = optional_count(run, "estimate_total", ok);
    if (!ok) return "field 'estimate_total' is not a count";
    const auto layers = run.find("layers");
    if (layers == run.end() || !layers->is_array()) return "field 'layers' missing or not an array";
    std::vector<LayerCycles> parsed;
    for (const auto& l : *layers) {
        if (!l.is_object() || !l.contains("layer") || !l["layer"].is_number_integer())
            return "a 'layers' entry has no integer 'layer'";
        LayerCycles lc;
        lc.layer = l["layer"].get<int>();
        lc.ours = optional_count(l, "cycles", ok);
        lc.theirs = optional_count(l, "estimate", ok);
        if (!ok) return "layer " + std::to_string(lc.layer) + ": 'cycles' or 'estimate' is not a count";
        lc.streaming = l.contains("stream_span");
        parsed.push_back(lc);
    }
    v.cnn_cycles = run["cnn_cycles"].get<uint64_t>();
    v.stall_cycles = run["stall_cycles"].get<uint64_t>();
    v.estimate_total = total;
    v.layers = std::move(parsed);
    v.has_data = true;
    return std::nullopt;
}

CycleStats compute_cycle_stats(const std::vector<VectorCycles>& vectors, const TimingCriteria& c) {
    CycleStats s;
    for (const auto& v : vectors) {
        if (!v.has_estimate) {
            s.without_estimate.push_back(v.name);
            continue;
        }
        const bool streaming = v.kind == "streaming" ||
                               std::any_of(v.layers.begin(), v.layers.end(), [](const auto& l) { return l.streaming; });
        if (streaming)
            add_streaming_vector(v, s);
        else
            add_judged_vector(v, c, s);
    }
    std::sort(s.streaming_layer_ratios.begin(), s.streaming_layer_ratios.end());

    auto count = [](std::size_t n, const char* what) { return std::to_string(n) + " " + what; };
    if (!s.missing.empty()) s.unmet.push_back(count(s.missing.size(), "vector(s) without timing data"));
    if (!s.layers_without_figure.empty())
        s.unmet.push_back(count(s.layers_without_figure.size(), "layer(s) or total(s) without a figure"));
    if (!s.layers_outside.empty())
        s.unmet.push_back(count(s.layers_outside.size(), "layer(s) beyond ") + percent(c.layer_tolerance).substr(1));
    // The slack keeps exactly the minimum share (19 of 20 at 95 %) on the passing side.
    if (s.layers_compared > 0 &&
        static_cast<double>(s.layers_exact) / static_cast<double>(s.layers_compared) < c.min_exact_share - 1e-12) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "%.1f %% of layers exact (need %.0f %%)",
                      100.0 * static_cast<double>(s.layers_exact) / static_cast<double>(s.layers_compared),
                      100.0 * c.min_exact_share);
        s.unmet.push_back(buf);
    }
    if (!s.totals_outside.empty())
        s.unmet.push_back(count(s.totals_outside.size(), "total(s) beyond ") + percent(c.total_tolerance).substr(1));
    return s;
}

std::string format_cycle_stats(const CycleStats& s, const TimingCriteria& c) {
    std::ostringstream o;
    char buf[256];
    const auto share = [](std::size_t a, std::size_t b) {
        return b == 0 ? 0.0 : 100.0 * static_cast<double>(a) / static_cast<double>(b);
    };
    o << "cycle statistics: our CNN cycles vs the generator's latency estimate (meta.json)\n";
    o << "without streaming: " << s.judged_vectors << " vector(s) judged, " << s.layers_compared
      << " layer(s) compared\n";
    std::snprintf(buf, sizeof buf, "  layers exact:         %zu of %zu (%.1f %%, need >= %.0f %%)\n", s.layers_exact,
                  s.layers_compared, share(s.layers_exact, s.layers_compared), 100.0 * c.min_exact_share);
    o << buf;
    std::snprintf(buf, sizeof buf, "  layers within %-7s %zu of %zu\n",
                  (percent(c.layer_tolerance).substr(1) + ":").c_str(), s.layers_within, s.layers_compared);
    o << buf;
    if (s.worst_layer)
        o << "  worst layer:          " << s.worst_layer->vector << " layer " << s.worst_layer->layer << ": ours "
          << s.worst_layer->ours << ", theirs " << s.worst_layer->theirs << ", " << percent(s.worst_layer->error)
          << (s.worst_layer->error == 0 ? " (every layer exact)" : "") << "\n";
    for (const auto& w : s.layers_outside)
        o << "  OUTSIDE " << w.vector << " layer " << w.layer << ": ours " << w.ours << ", theirs " << w.theirs << ", "
          << percent(w.error) << "\n";
    std::snprintf(buf, sizeof buf, "  totals within %-7s %zu of %zu\n",
                  (percent(c.total_tolerance).substr(1) + ":").c_str(), s.totals_within, s.totals_compared);
    o << buf;
    if (s.worst_total)
        o << "  worst total:          " << s.worst_total->vector << ": ours " << s.worst_total->ours << ", theirs "
          << s.worst_total->theirs << ", " << percent(s.worst_total->error)
          << (s.worst_total->error == 0 ? " (every total exact)" : "") << "\n";
    for (const auto& t : s.totals_outside)
        o << "  OUTSIDE " << t.vector << " total: ours " << t.ours << ", theirs " << t.theirs << ", "
          << percent(t.error) << "\n";
    if (!s.fifo_rows.empty()) {
        o << "  FIFO vectors (the estimate ignores the input FIFO: totals compared without stall cycles):\n";
        for (const auto& f : s.fifo_rows)
            o << "    " << f.name << ": work " << f.work << " + stalls " << f.stall_cycles << " = " << f.cnn_cycles
              << " cycles; estimate " << (f.estimate_total ? std::to_string(*f.estimate_total) : "-") << "\n";
    }
    for (const auto& m : s.layers_without_figure) o << "  NO FIGURE " << m << "\n";
    if (!s.missing.empty()) o << "  MISSING (no timing data): " << join(s.missing) << "\n";
    if (!s.missing_expected.empty()) o << "  missing, expected failures: " << join(s.missing_expected) << "\n";

    if (!s.streaming_rows.empty() || !s.streaming_missing.empty()) {
        o << "streaming (not judged; the generator estimates a streaming layer as its count x 1.5):\n";
        std::size_t w = 6;
        for (const auto& r : s.streaming_rows) w = std::max(w, r.name.size());
        std::snprintf(buf, sizeof buf, "  %-*s  %6s  %10s  %10s  %6s  %8s  %10s  %10s  %6s\n", static_cast<int>(w),
                      "vector", "chain", "ours_chain", "their_chain", "ratio", "stalls", "ours_total", "their_total",
                      "ratio");
        o << buf;
        for (const auto& r : s.streaming_rows) {
            const std::string theirs_total = r.estimate_total ? std::to_string(*r.estimate_total) : "-";
            std::snprintf(
                buf, sizeof buf, "  %-*s  %6zu  %10llu  %10llu  %6s  %8llu  %10llu  %10s  %6s\n", static_cast<int>(w),
                r.name.c_str(), r.chain_layers, static_cast<unsigned long long>(r.chain_ours),
                static_cast<unsigned long long>(r.chain_theirs), ratio_text(r.chain_ours, r.chain_theirs).c_str(),
                static_cast<unsigned long long>(r.stall_cycles), static_cast<unsigned long long>(r.cnn_cycles),
                theirs_total.c_str(), ratio_text(r.cnn_cycles, r.estimate_total.value_or(0)).c_str());
            o << buf;
        }
        const auto& q = s.streaming_layer_ratios;
        if (!q.empty()) {
            std::snprintf(buf, sizeof buf, "  streaming layers: %zu, ours/theirs min %.4f median %.4f max %.4f\n",
                          q.size(), q.front(), q[q.size() / 2], q.back());
            o << buf;
        }
        o << "  non-streaming layers of these vectors: " << s.chain_free_exact << " of " << s.chain_free_layers
          << " exact\n";
        if (!s.streaming_missing.empty()) o << "  no data: " << join(s.streaming_missing) << "\n";
    }
    if (!s.without_estimate.empty())
        o << "not judged (the generator gave no latency estimate): " << s.without_estimate.size() << " vector(s)\n";
    const bool nothing_to_judge =
        s.judged_vectors == 0 && s.streaming_rows.empty() && s.missing.empty() && s.streaming_missing.empty();
    if (nothing_to_judge && !s.without_estimate.empty()) {
        o << "timing: not judged (no vector has a generator estimate)\n";
    } else if (s.unmet.empty()) {
        o << "timing: criteria met";
        if (s.layers_compared == 0) o << " (no vector without streaming was judged)";
        o << "\n";
    } else {
        o << "timing: criteria NOT met: " << join(s.unmet) << "\n";
    }
    return o.str();
}

}  // namespace ai8x::conformance
