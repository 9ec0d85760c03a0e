#include "app/waveform_vcd.h"

#include <algorithm>
#include <map>

#include <spdlog/fmt/fmt.h>

#include "app/vcd_writer.h"

namespace ai8x {

namespace {

const WaveformRecorder::Layer* find_layer(const WaveformRecorder& r, std::size_t inference, int layer) {
    for (const auto& l : r.layers())
        if (l.inference == inference && l.layer == layer) return &l;
    return nullptr;
}

}  // namespace

void write_waveform_vcd(const WaveformRecorder& r, const WaveformLayout& layout, const std::string& path) {
    VcdWriter vcd(sc_core::sc_get_time_resolution().to_string());
    const auto tick = [](sc_core::sc_time t) { return t.value(); };

    const int busy = vcd.add_signal(layout.cnn_scope, "busy", 1, 0);
    const int layer = vcd.add_signal(layout.cnn_scope, "layer", 2);
    const int passes = vcd.add_signal(layout.cnn_scope, "passes", 2);
    const int irq = vcd.add_signal(layout.cnn_scope, "irq", 1, 0);
    std::vector<int> q_busy, q_layer;
    for (const std::string& scope : layout.quadrant_scopes) {
        q_busy.push_back(vcd.add_signal(scope, "busy", 1, 0));
        q_layer.push_back(vcd.add_signal(scope, "layer", 2));
    }
    std::vector<int> level;
    for (unsigned f = 0; f < layout.fifo_count; ++f)
        level.push_back(vcd.add_signal(layout.fifo_scope, "level" + std::to_string(f), 2, 0));
    const int stall = vcd.add_signal(layout.fifo_scope, "stall", 1, 0);
    const int stream_layer = vcd.add_signal(layout.stream_scope, "layer", 2);
    std::map<int, int> rows;  // streaming layer -> its rows signal
    for (const auto& p : r.positions())
        if (!rows.count(p.layer))
            rows[p.layer] = vcd.add_signal(layout.stream_scope, "l" + std::to_string(p.layer) + "_rows", 2, 0);
    const int sleep = vcd.add_signal(layout.cpu_scope, "sleep", 1, 0);

    // The accelerator's signals below are given in time order per signal, so
    // a value equal to the last one given changes nothing: leaving it out
    // keeps the writer's sort small (a streaming layer switches thousands of times).
    std::vector<std::optional<uint64_t>> last(std::size_t(sleep) + 1);
    std::vector<bool> given(last.size(), false);
    const auto set = [&](uint64_t t, int signal, std::optional<uint64_t> value) {
        if (given[std::size_t(signal)] && last[std::size_t(signal)] == value) return;
        given[std::size_t(signal)] = true;
        last[std::size_t(signal)] = value;
        vcd.change(t, signal, value);
    };
    // The quadrants' and the sequencer's view of "layer L runs from time t".
    const auto layer_starts = [&](uint64_t t, const WaveformRecorder::Layer& l) {
        set(t, layer, uint64_t(l.layer));
        set(t, passes, uint64_t(l.passes));
        for (std::size_t q = 0; q < q_busy.size(); ++q) {
            const bool in = l.quadrants >> q & 1;
            set(t, q_busy[q], uint64_t(in));
            set(t, q_layer[q], in ? std::optional<uint64_t>(l.layer) : std::nullopt);
        }
    };

    std::map<double, bool> clocks;
    for (std::size_t i = 0; i < r.inferences().size(); ++i) {
        const auto& inf = r.inferences()[i];
        clocks[inf.hz] = true;
        set(tick(inf.start), busy, 1);
        for (const auto& [l, signal] : rows) set(tick(inf.start), signal, 0);
        // Streaming positions first, then the sequential layers and the end, so
        // that of two changes at one time the later event's wins.
        for (const auto& p : r.positions()) {
            if (p.inference != i) continue;
            const uint64_t from = tick(r.time_of(i, p.first)), to = tick(r.time_of(i, p.end));
            if (const auto* l = find_layer(r, i, p.layer)) layer_starts(from, *l);
            set(from, stream_layer, uint64_t(p.layer));
            set(to, stream_layer, std::nullopt);
            set(to, rows[p.layer], p.rows_done);
        }
        for (const auto& s : r.stalls()) {
            if (s.inference != i) continue;
            set(tick(r.time_of(i, s.first)), stall, 1);
            set(tick(r.time_of(i, s.end)), stall, 0);
        }
        for (const auto& l : r.layers())
            if (l.inference == i && !l.streaming) layer_starts(tick(r.time_of(i, l.first)), l);
        if (!inf.cycles) continue;  // the run ended during the inference
        const uint64_t end = tick(r.time_of(i, *inf.cycles));
        set(end, busy, 0);
        set(end, layer, std::nullopt);
        set(end, passes, std::nullopt);
        set(end, stream_layer, std::nullopt);
        for (std::size_t q = 0; q < q_busy.size(); ++q) {
            set(end, q_busy[q], 0);
            set(end, q_layer[q], std::nullopt);
        }
    }

    // FIFO levels: pushes come when the accelerator sees them, pops at the CNN
    // cycle that takes the word (the chain runs ahead of SystemC time), so
    // they are recorded out of order; count them in time order.
    std::vector<WaveformRecorder::FifoChange> fifo = r.fifo_changes();
    std::stable_sort(fifo.begin(), fifo.end(), [](const auto& a, const auto& b) { return a.at < b.at; });
    std::vector<int64_t> words(layout.fifo_count, 0);
    for (const auto& c : fifo) {
        if (c.fifo >= layout.fifo_count) continue;
        int64_t& n = words[c.fifo];
        if (c.kind == WaveformRecorder::FifoChange::Push) n += int64_t(c.words);
        if (c.kind == WaveformRecorder::FifoChange::Pop) n = std::max<int64_t>(0, n - int64_t(c.words));
        if (c.kind == WaveformRecorder::FifoChange::Clear) n = 0;
        vcd.change(tick(c.at), level[c.fifo], uint64_t(n));
    }
    for (const auto& e : r.irq()) vcd.change(tick(e.at), irq, uint64_t(e.level));
    for (const auto& e : r.sleep()) vcd.change(tick(e.at), sleep, uint64_t(e.level));

    for (const auto& [hz, unused] : clocks)
        vcd.add_comment(fmt::format("CNN clock {} Hz ({} time units per cycle)", hz,
                                    1.0 / hz / sc_core::sc_get_time_resolution().to_seconds()));
    vcd.add_comment(fmt::format("run ended at {}", tick(r.end())));
    vcd.write(path);
}

}  // namespace ai8x
