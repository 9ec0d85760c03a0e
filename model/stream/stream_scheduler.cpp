#include "model/stream/stream_scheduler.h"

#include <algorithm>
#include <limits>

#include "model/registers/quadrant_registers.h"

namespace ai8x {

namespace {

constexpr uint64_t kNone = std::numeric_limits<uint64_t>::max();
constexpr std::size_t kNoLayer = std::numeric_limits<std::size_t>::max();

std::string hex(uint64_t v) { return to_hex(v); }

// A read's pooled position, as the hazard messages spell it.
std::string read_position(uint32_t i, uint32_t j) { return "(" + std::to_string(i) + "," + std::to_string(j) + ")"; }

}  // namespace

StreamScheduler::StreamScheduler(const StreamPlan& plan, PositionCost cost, Policy policy)
    : plan_(plan), cost_(std::move(cost)), policy_(policy) {
    const std::size_t n = plan_.chain.size();
    at_.assign(n, Cursor{});
    waits_.resize(n);
    progress_.resize(n);
    reports_.resize(n);
    for (std::size_t k = 0; k < n; ++k) {
        const StreamLayer& s = plan_.chain[k];
        progress_[k].assign(uint64_t{s.cfg.pooled_rows} * s.cfg.pooled_cols, 0);
        reports_[k].layer = s.layer();
        reports_[k].min_margin = std::numeric_limits<int64_t>::max();
        const uint64_t per_word = (k == 0 && plan_.fifo_mode) ? plan_.pixels_per_word() : 1;
        reports_[k].ring_pixels = uint64_t{s.fmax} * per_word / std::max<uint32_t>(1, s.cfg.passes);
        find_wait(k);
    }
    transfer_limit_ = transfer_limit();
}

bool StreamScheduler::done() const {
    for (std::size_t k = 0; k < at_.size(); ++k)
        if (at_[k].pos < plan_.chain[k].positions()) return false;
    return !plan_.fifo_mode || words_ >= plan_.frame_words;
}

void StreamScheduler::add_stall(uint64_t cycles) {
    cycle_ += cycles;
    stalls_ += cycles;
}

StreamScheduler::Real StreamScheduler::real_at(std::size_t index) const {
    const uint64_t r = at_[index].row, c = at_[index].col;
    const LayerConfig& cfg = plan_.chain[index].cfg;
    if (r < cfg.pad_rows || r >= cfg.pad_rows + cfg.pooled_rows || c < cfg.pad_cols ||
        c >= cfg.pad_cols + cfg.pooled_cols)
        return {false, 0, 0};
    return {true, static_cast<uint32_t>(r - cfg.pad_rows), static_cast<uint32_t>(c - cfg.pad_cols)};
}

uint64_t StreamScheduler::written_pixels(std::size_t index, uint64_t positions) const {
    const StreamLayer& s = plan_.chain[index];
    if (positions == 0) return 0;
    // Output pixel (r, c) is complete once the scan has passed position (r + kh - 1, c + kw - 1).
    const uint64_t last = positions - 1;
    const int64_t row = static_cast<int64_t>(last / s.scan_cols);
    const int64_t col = static_cast<int64_t>(last % s.scan_cols);
    const int64_t out_row = row - (static_cast<int64_t>(s.cfg.kernel_rows) - 1);
    if (out_row < 0) return 0;
    if (out_row >= static_cast<int64_t>(s.out_rows)) return uint64_t{s.out_rows} * s.out_cols;
    const int64_t cols = std::clamp<int64_t>(col - (static_cast<int64_t>(s.cfg.kernel_cols) - 1) + 1, 0,
                                             static_cast<int64_t>(s.out_cols));
    return static_cast<uint64_t>(out_row) * s.out_cols + static_cast<uint64_t>(cols);
}

int64_t StreamScheduler::threshold(std::size_t index, uint32_t i, uint32_t j) const {
    const StreamLayer& s = plan_.chain[index];
    return int64_t{s.start} + (int64_t{i} * (int64_t{s.scan_cols} - 1) + j) * s.delta1 + int64_t{i} * s.delta2;
}

int64_t StreamScheduler::need(std::size_t index, uint32_t i, uint32_t j) const {
    const LayerConfig& c = plan_.chain[index].cfg;
    const StreamLayer& p = plan_.chain[index - 1];
    const int64_t sh = c.pool_stride, sw = c.conv1d ? 1 : c.pool_stride;
    if (plan_.release_on_window)  // in the consumer's padded input (§12)
        return (sh * i + c.pool_rows - 1 + c.pad_rows) * int64_t{c.in_cols + 2 * c.pad_cols} +
               (sw * j + c.pool_cols - 1 + c.pad_cols) + 1;
    return (sh * i + c.pool_rows - 1 + p.cfg.kernel_rows - 1) * int64_t{p.scan_cols} +
           (sw * j + c.pool_cols - 1 + p.cfg.kernel_cols - 1) + 1;
}

// The producer output pixels a read of pooled position (i, j) needs (the
// last pixel of its window, counted from 1).
uint64_t StreamScheduler::window_end(std::size_t index, uint32_t i, uint32_t j) const {
    const LayerConfig& c = plan_.chain[index].cfg;
    const uint64_t sw = c.conv1d ? 1 : c.pool_stride;
    return (uint64_t{c.pool_stride} * i + c.pool_rows - 1) * c.in_cols + sw * j + c.pool_cols;
}

uint64_t StreamScheduler::received_pixels() const {
    const LayerConfig& c = plan_.chain.front().cfg;
    const uint64_t frame = uint64_t{c.in_rows} * c.in_cols;
    if (!plan_.fifo_mode) return frame;
    return std::min(words_ * plan_.pixels_per_word(), frame);
}

uint64_t StreamScheduler::layer0_oldest_pixel() const {
    const LayerConfig& c = plan_.chain.front().cfg;
    const uint64_t r = at_[0].row, col = at_[0].col;
    uint64_t i = 0, j = 0;
    if (r >= c.pad_rows + c.pooled_rows) return kNone;
    if (r >= c.pad_rows) {
        i = r - c.pad_rows;
        if (col >= c.pad_cols + c.pooled_cols) {
            ++i;
            if (i >= c.pooled_rows) return kNone;
        } else if (col >= c.pad_cols) {
            j = col - c.pad_cols;
        }
    }
    const uint64_t sw = c.conv1d ? 1 : c.pool_stride;
    return c.pool_stride * i * c.in_cols + sw * j;
}

// How many frame words the FIFOs may have moved into layer 0's ring at its
// current position: all of the frame, less what the ring cannot take yet.
uint64_t StreamScheduler::transfer_limit() const {
    if (!plan_.fifo_mode) return 0;
    const uint64_t frame = plan_.frame_words;
    if (plan_.chain.empty()) return frame;  // non-streaming FIFO mode: the whole frame fits
    // Space driven (§4.3): word k may overwrite its slot only once no remaining read needs the old word.
    const uint64_t oldest = layer0_oldest_pixel();
    if (oldest == kNone) return frame;
    return std::min<uint64_t>(frame, oldest / plan_.pixels_per_word() + plan_.chain.front().fmax);
}

// Moves words into the ring one at a time while they are there and allowed:
// the bound does not depend on the words moved, so they move at once.
void StreamScheduler::transfer_words(uint64_t words_available) {
    const uint64_t target = std::min(words_available, transfer_limit_);
    if (words_ < target) words_ = target;
}

void StreamScheduler::find_wait(std::size_t index) {
    const StreamLayer& s = plan_.chain[index];
    Wait& w = waits_[index];
    w = Wait{};
    if (at_[index].pos >= s.positions()) return;
    w.at = real_at(index);
    if (!w.at.real) return;
    const uint32_t i = w.at.i, j = w.at.j;
    if (index == 0) {
        // The stream start and the read's window, both within the frame: all
        // of the frame received always suffices.
        const uint64_t frame = uint64_t{s.cfg.in_rows} * s.cfg.in_cols;
        const uint64_t need = std::max<uint64_t>(std::min<uint64_t>(s.start, frame), window_end(0, i, j));
        w.need = static_cast<int64_t>(std::min(frame, need));
    } else {
        w.need = plan_.release_on_window ? static_cast<int64_t>(window_end(index, i, j)) : threshold(index, i, j);
    }
}

bool StreamScheduler::ready(std::size_t index) const {
    const StreamLayer& s = plan_.chain[index];
    if (at_[index].pos >= s.positions()) return false;
    const Wait& w = waits_[index];
    if (!w.at.real) return true;  // padding reads nothing and never waits
    if (index == 0) return !plan_.fifo_mode || static_cast<int64_t>(received_pixels()) >= w.need;
    const uint64_t producer = at_[index - 1].pos;
    if (producer >= plan_.chain[index - 1].positions()) return true;  // producer done
    if (plan_.release_on_window) return static_cast<int64_t>(written_pixels(index - 1, producer)) >= w.need;
    return static_cast<int64_t>(producer) >= w.need;
}

uint32_t StreamScheduler::slot_address(std::size_t index, uint64_t pixel) const {
    const StreamLayer& s = plan_.chain[index];
    if (!plan_.device || s.cfg.processors.empty()) return 0;
    const DeviceConfig& d = *plan_.device;
    const uint32_t inst = static_cast<uint32_t>(s.cfg.processors.front().global) / d.processors_per_data_sram;
    const uint32_t q = inst / d.data_sram.instances_per_quadrant, local = inst % d.data_sram.instances_per_quadrant;
    const uint64_t linear = (index == 0 && plan_.fifo_mode) ? pixel / plan_.pixels_per_word() : pixel * s.cfg.passes;
    const uint64_t word = s.ring_offset + (s.fmax ? linear % s.fmax : linear);
    return static_cast<uint32_t>(d.data_sram.base + q * d.data_sram.quadrant_stride +
                                 local * d.data_sram.instance_stride + word * d.data_sram.slot_bytes);
}

void StreamScheduler::report(std::size_t index, const std::string& kind, uint64_t pixel, const std::string& message) {
    const int layer = plan_.chain[index].layer();
    for (StreamHazard& h : hazards_)
        if (h.layer == layer && h.kind == kind) {
            ++h.count;
            return;
        }
    hazards_.push_back({layer, slot_address(index, pixel), cycle_, kind, 1, message});
}

void StreamScheduler::check_read(std::size_t index, uint32_t i, uint32_t j) {
    const LayerConfig& c = plan_.chain[index].cfg;
    LayerReport& rep = reports_[index];
    const uint64_t sw = c.conv1d ? 1 : c.pool_stride;
    const uint64_t first = uint64_t{c.pool_stride} * i * c.in_cols + sw * j;
    const uint64_t last = (uint64_t{c.pool_stride} * i + c.pool_rows - 1) * c.in_cols + sw * j + c.pool_cols - 1;
    uint64_t written = 0;
    if (index == 0) {
        if (!plan_.fifo_mode) return;
        written = received_pixels();
    } else {
        const uint64_t producer = at_[index - 1].pos;
        written = written_pixels(index - 1, producer);
        const int64_t t = threshold(index, i, j), n = need(index, i, j);
        rep.min_margin = std::min(rep.min_margin, t - n);
        if (producer < plan_.chain[index - 1].positions() && t < n) report_early_read(index, i, j, t, n, last);
    }
    // §6.2 at pixel level: every pixel of the pooling window must be in the ring, written and not overwritten.
    if (written > first) rep.max_ring_pixels = std::max(rep.max_ring_pixels, written - first);
    if (last >= written) report_stale_read(index, i, j, last, written);
    if (written > first + rep.ring_pixels) report_overwritten_read(index, i, j, first, written);
}

// The hazards' messages, built only when a read reports one (most report nothing).
void StreamScheduler::report_early_read(std::size_t index, uint32_t i, uint32_t j, int64_t t, int64_t n,
                                        uint64_t last) {
    const StreamLayer& s = plan_.chain[index];
    const StreamLayer& p = plan_.chain[index - 1];
    const char* unit = plan_.release_on_window ? " of its input positions" : " scan positions";
    report(index, "read_before_write", last,
           "layer " + std::to_string(s.layer()) + " read " + read_position(i, j) + " may start when layer " +
               std::to_string(p.layer()) + " has completed " + std::to_string(t) + unit + " but needs " +
               std::to_string(n) + " (STREAM1=" + hex(s.start) + ", DELTA1=" + std::to_string(s.delta1) + ", DELTA2=" +
               std::to_string(s.delta2) + "): it reads pixels layer " + std::to_string(p.layer()) + " has not written");
}

void StreamScheduler::report_stale_read(std::size_t index, uint32_t i, uint32_t j, uint64_t last, uint64_t written) {
    report(index, "stale_read", last,
           "layer " + std::to_string(plan_.chain[index].layer()) + " read " + read_position(i, j) +
               " uses input pixel " + std::to_string(last) + " but only " + std::to_string(written) +
               " were written: the ring slot holds older data");
}

void StreamScheduler::report_overwritten_read(std::size_t index, uint32_t i, uint32_t j, uint64_t first,
                                              uint64_t written) {
    const StreamLayer& s = plan_.chain[index];
    report(index, "overrun", first,
           "layer " + std::to_string(s.layer()) + " read " + read_position(i, j) + " uses input pixel " +
               std::to_string(first) + " but " + std::to_string(written) + " were written into a ring of " +
               std::to_string(reports_[index].ring_pixels) + " pixels (LREG_FMAX=" + std::to_string(s.fmax) +
               "): the slot was overwritten");
}

void StreamScheduler::run_position(std::size_t index) {
    const StreamLayer& s = plan_.chain[index];
    Cursor& cur = at_[index];
    const Real at = waits_[index].at;
    if (at.real) {
        const uint64_t prog = index == 0 ? words_ : written_pixels(index - 1, at_[index - 1].pos);
        progress_[index][uint64_t{at.i} * s.cfg.pooled_cols + at.j] = prog;
        if (at.i == 0 && at.j == 0) reports_[index].first_read_cycle = cycle_;
        check_read(index, at.i, at.j);
    }
    const uint64_t cycles = cost_(index, cur.row, cur.col);
    LayerReport& rep = reports_[index];
    if (cur.pos == 0) rep.first_cycle = cycle_;
    cycle_ += cycles;
    rep.work_cycles += cycles;
    rep.last_cycle = cycle_;
    ++cur.pos;
    if (++cur.col == s.scan_cols) {
        cur.col = 0;
        ++cur.row;
    }
    find_wait(index);
    if (index == 0) transfer_limit_ = transfer_limit();
}

StreamStep StreamScheduler::ran(std::size_t index, uint64_t before) const {
    StreamStep st;
    st.kind = StreamStep::Ran;
    st.layer = plan_.chain[index].layer();
    st.cycles = cycle_ - before;
    return st;
}

StreamStep StreamScheduler::run(uint64_t words_available, uint64_t cycle_limit) {
    StreamStep st = step(words_available);
    while (st.kind == StreamStep::Ran && cycle_ < cycle_limit) st = step(words_available);
    return st;
}

StreamStep StreamScheduler::step(uint64_t words_available) {
    for (;;) {
        transfer_words(words_available);
        if (const std::size_t index = deepest_ready(); index != kNoLayer) {
            const uint64_t before = cycle_;
            run_position(index);
            return ran(index, before);
        }
        if (done()) return StreamStep{StreamStep::Done, -1, 0, 0};
        const bool frame_open = plan_.fifo_mode && words_ < plan_.frame_words;
        if (frame_open && words_ >= words_available) {
            StreamStep st;
            st.kind = StreamStep::NeedFifo;
            st.need_word = words_;
            return st;
        }
        if (!frame_open) return force_unfinished();
        overwrite_needed_slot();
    }
}

// Deepest ready layer first (§4.5); producer-first only for the negative control.
std::size_t StreamScheduler::deepest_ready() const {
    const std::size_t n = plan_.chain.size();
    for (std::size_t k = 0; k < n; ++k) {
        const std::size_t index = policy_ == Policy::DeepestFirst ? n - 1 - k : k;
        if (ready(index)) return index;
    }
    return kNoLayer;
}

// Data is waiting but the ring is full of words layer 0 still needs and layer 0
// cannot start: the registers deadlock the stream (§6.1, layer 0). The model moves
// the word anyway, overwriting a needed slot, so the run ends and reports it.
void StreamScheduler::overwrite_needed_slot() {
    const StreamLayer& s = plan_.chain.front();
    report(0, "overrun", words_ * plan_.pixels_per_word(),
           "layer " + std::to_string(s.layer()) + ": FIFO word " + std::to_string(words_) +
               " has no free ring slot (LREG_FMAX=" + std::to_string(s.fmax) + ", stream start " +
               std::to_string(s.start) + "); the stream would deadlock, the model overwrites the slot");
    ++words_;
}

// Nothing can wait for anything else any more; cannot happen with a complete frame,
// but never loop forever: run the first unfinished layer.
StreamStep StreamScheduler::force_unfinished() {
    for (std::size_t k = 0; k < plan_.chain.size(); ++k)
        if (at_[k].pos < plan_.chain[k].positions()) {
            report(k, "deadlock", 0,
                   "layer " + std::to_string(plan_.chain[k].layer()) + " cannot become ready; forced to run");
            const uint64_t before = cycle_;
            run_position(k);
            return ran(k, before);
        }
    return StreamStep{StreamStep::Done, -1, 0, 0};
}

}  // namespace ai8x
