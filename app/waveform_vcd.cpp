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

uint64_t tick(sc_core::sc_time t) { return t.value(); }

// The signals of one recording, declared in the order the VCD lists them,
// and their changes. The accelerator's signals are given in time order per
// signal, so a value equal to the last one given changes nothing: leaving it
// out keeps the writer's sort small (a streaming layer switches thousands of times).
class VcdComposer {
public:
    VcdComposer(const WaveformRecorder& r, const WaveformLayout& layout)
        : r_(r), layout_(layout), vcd_(sc_core::sc_get_time_resolution().to_string()) {
        declare_signals();
    }

    // Busy, layers, passes, quadrants, streaming rows and stalls of inference `i`.
    void inference(std::size_t i);
    // FIFO levels, the interrupt line and the CPU's sleep.
    void edges();
    void write(const std::string& path, const std::map<double, bool>& clocks);

private:
    void declare_signals();
    void set(uint64_t t, int signal, std::optional<uint64_t> value) {
        if (given_[std::size_t(signal)] && last_[std::size_t(signal)] == value) return;
        given_[std::size_t(signal)] = true;
        last_[std::size_t(signal)] = value;
        vcd_.change(t, signal, value);
    }
    // The quadrants' and the sequencer's view of "layer L runs from time t".
    void layer_starts(uint64_t t, const WaveformRecorder::Layer& l);
    void inference_ends(uint64_t end);

    const WaveformRecorder& r_;
    const WaveformLayout& layout_;
    VcdWriter vcd_;
    int busy_ = 0, layer_ = 0, passes_ = 0, irq_ = 0, stall_ = 0, stream_layer_ = 0, sleep_ = 0;
    std::vector<int> q_busy_, q_layer_, level_;
    std::map<int, int> rows_;  // streaming layer -> its rows signal
    std::vector<std::optional<uint64_t>> last_;
    std::vector<bool> given_;
};

void VcdComposer::declare_signals() {
    busy_ = vcd_.add_signal(layout_.cnn_scope, "busy", 1, 0);
    layer_ = vcd_.add_signal(layout_.cnn_scope, "layer", 2);
    passes_ = vcd_.add_signal(layout_.cnn_scope, "passes", 2);
    irq_ = vcd_.add_signal(layout_.cnn_scope, "irq", 1, 0);
    for (const std::string& scope : layout_.quadrant_scopes) {
        q_busy_.push_back(vcd_.add_signal(scope, "busy", 1, 0));
        q_layer_.push_back(vcd_.add_signal(scope, "layer", 2));
    }
    for (unsigned f = 0; f < layout_.fifo_count; ++f)
        level_.push_back(vcd_.add_signal(layout_.fifo_scope, "level" + std::to_string(f), 2, 0));
    stall_ = vcd_.add_signal(layout_.fifo_scope, "stall", 1, 0);
    stream_layer_ = vcd_.add_signal(layout_.stream_scope, "layer", 2);
    for (const auto& p : r_.positions())
        if (!rows_.count(p.layer))
            rows_[p.layer] = vcd_.add_signal(layout_.stream_scope, "l" + std::to_string(p.layer) + "_rows", 2, 0);
    sleep_ = vcd_.add_signal(layout_.cpu_scope, "sleep", 1, 0);
    last_.resize(std::size_t(sleep_) + 1);
    given_.resize(last_.size(), false);
}

void VcdComposer::layer_starts(uint64_t t, const WaveformRecorder::Layer& l) {
    set(t, layer_, uint64_t(l.layer));
    set(t, passes_, uint64_t(l.passes));
    for (std::size_t q = 0; q < q_busy_.size(); ++q) {
        const bool in = l.quadrants >> q & 1;
        set(t, q_busy_[q], uint64_t(in));
        set(t, q_layer_[q], in ? std::optional<uint64_t>(l.layer) : std::nullopt);
    }
}

void VcdComposer::inference_ends(uint64_t end) {
    set(end, busy_, 0);
    set(end, layer_, std::nullopt);
    set(end, passes_, std::nullopt);
    set(end, stream_layer_, std::nullopt);
    for (std::size_t q = 0; q < q_busy_.size(); ++q) {
        set(end, q_busy_[q], 0);
        set(end, q_layer_[q], std::nullopt);
    }
}

void VcdComposer::inference(std::size_t i) {
    const auto& inf = r_.inferences()[i];
    set(tick(inf.start), busy_, 1);
    for (const auto& [l, signal] : rows_) set(tick(inf.start), signal, 0);
    // Streaming positions first, then the sequential layers and the end, so
    // that of two changes at one time the later event's wins.
    for (const auto& p : r_.positions()) {
        if (p.inference != i) continue;
        const uint64_t from = tick(r_.time_of(i, p.first)), to = tick(r_.time_of(i, p.end));
        if (const auto* l = find_layer(r_, i, p.layer)) layer_starts(from, *l);
        set(from, stream_layer_, uint64_t(p.layer));
        set(to, stream_layer_, std::nullopt);
        set(to, rows_[p.layer], p.rows_done);
    }
    for (const auto& s : r_.stalls()) {
        if (s.inference != i) continue;
        set(tick(r_.time_of(i, s.first)), stall_, 1);
        set(tick(r_.time_of(i, s.end)), stall_, 0);
    }
    for (const auto& l : r_.layers())
        if (l.inference == i && !l.streaming) layer_starts(tick(r_.time_of(i, l.first)), l);
    if (inf.cycles) inference_ends(tick(r_.time_of(i, *inf.cycles)));  // else the run ended during it
}

void VcdComposer::edges() {
    // FIFO levels: pushes come when the accelerator sees them, pops at the CNN
    // cycle that takes the word (the chain runs ahead of SystemC time), so
    // they are recorded out of order; count them in time order.
    std::vector<WaveformRecorder::FifoChange> fifo = r_.fifo_changes();
    std::stable_sort(fifo.begin(), fifo.end(), [](const auto& a, const auto& b) { return a.at < b.at; });
    std::vector<int64_t> words(layout_.fifo_count, 0);
    for (const auto& c : fifo) {
        if (c.fifo >= layout_.fifo_count) continue;
        int64_t& n = words[c.fifo];
        if (c.kind == WaveformRecorder::FifoChange::Push) n += int64_t(c.words);
        if (c.kind == WaveformRecorder::FifoChange::Pop) n = std::max<int64_t>(0, n - int64_t(c.words));
        if (c.kind == WaveformRecorder::FifoChange::Clear) n = 0;
        vcd_.change(tick(c.at), level_[c.fifo], uint64_t(n));
    }
    for (const auto& e : r_.irq()) vcd_.change(tick(e.at), irq_, uint64_t(e.level));
    for (const auto& e : r_.sleep()) vcd_.change(tick(e.at), sleep_, uint64_t(e.level));
}

void VcdComposer::write(const std::string& path, const std::map<double, bool>& clocks) {
    for (const auto& [hz, unused] : clocks)
        vcd_.add_comment(fmt::format("CNN clock {} Hz ({} time units per cycle)", hz,
                                     1.0 / hz / sc_core::sc_get_time_resolution().to_seconds()));
    vcd_.add_comment(fmt::format("run ended at {}", tick(r_.end())));
    vcd_.write(path);
}

}  // namespace

void write_waveform_vcd(const WaveformRecorder& r, const WaveformLayout& layout, const std::string& path) {
    VcdComposer vcd(r, layout);
    std::map<double, bool> clocks;
    for (std::size_t i = 0; i < r.inferences().size(); ++i) {
        clocks[r.inferences()[i].hz] = true;
        vcd.inference(i);
    }
    vcd.edges();
    vcd.write(path, clocks);
}

}  // namespace ai8x
