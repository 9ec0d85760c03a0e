#include "model/stream/stream_controller.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include <spdlog/spdlog.h>

#include "model/stream/cnn_edges.h"
#include "model/stream/stream_session.h"
#include "model/timing/timing_model.h"

namespace ai8x {

StreamController::StreamController(sc_core::sc_module_name name, const AccelTiming& timing, InputFifoBlock& fifos)
    : sc_module(name), timing_(timing), fifos_(fifos) {}

void StreamController::report_position(const StreamSession& session, const StreamStep& step, uint64_t end) {
    const auto& chain = session.plan().chain;
    for (std::size_t k = 0; k < chain.size(); ++k) {
        if (chain[k].layer() != step.layer) continue;
        const uint64_t done = ++positions_run_[k];
        observer_->stream_position(step.layer, end - step.cycles, end,
                                   done / std::max<uint32_t>(1, chain[k].scan_cols));
        return;
    }
}

void StreamController::check_starvation(const InputFifos& fifos, uint32_t enabled) {
    if (fifos.full_flags() == 0) return;  // nothing is full: nothing starves next to it (the usual case)
    // Each FIFO feeds only its own quadrant, and a frame position needs its word
    // from every enabled FIFO: an empty FIFO next to a full one stops the frame
    // until the firmware writes the empty one. Generated firmware for HWC input
    // spread over quadrants (processors 0, 16, 32) enables FIFOs 0-2 but writes
    // only FIFO 0; it then waits for FIFO 0 space forever, as it would on the chip.
    const uint32_t starved = fifos.starved_by_full(enabled);
    if ((starved & ~starved_) == 0) return;
    starved_ |= starved;
    for (uint32_t i = 0; i < fifos.count(); ++i)
        if (starved >> i & 1)
            spdlog::warn(
                "{}: layer 0 waits for FIFO {} (enabled in FIFO_CTL, feeds quadrant {} only), which is empty while "
                "FIFO_STAT shows 0x{:x} full; every frame position needs one word from each enabled FIFO, so "
                "nothing drains until the firmware writes FIFO {}",
                name(), i, i, fifos.full_flags(), i);
}

// The controller's clock for one inference: cycle n of the accelerator is
// SystemC time start + n / f_CNN. Every wait goes to such an edge, so the
// completion interrupt comes exactly cnn_cycles after the start, as the
// silicon's busy interval (what the firmware's stopwatch measures) does.
class StreamController::RunClock {
public:
    RunClock(double hz, bool defer_waits)
        : start_(sc_core::sc_time_stamp()), hz_(hz), edges_(start_, hz), defer_waits_(defer_waits) {}

    // Waits until cycle `cycle`. A wait inside the inference (`may_defer`) is
    // left out when no other process has anything scheduled up to and
    // including that edge: nothing can run, look at the FIFOs or push a word
    // before it, so the controller's next actions happen exactly as after the
    // wait, only at an earlier host moment; its next real wait then goes from
    // the SystemC time reached to the later edge, which is where it would
    // have been waiting when anyone else runs. (An activity due exactly at
    // the edge keeps the wait, so processes due at the same instant meet as
    // before.) With an observer (--vcd/--timeline) every wait is kept.
    void advance_to(uint64_t cycle, bool may_defer) {
        // In SystemC time units: an sc_time is built only for a wait.
        const uint64_t edge = edges_.value_at(cycle), now = sc_core::sc_time_stamp().value();
        if (edge > now && !(may_defer && defer_waits_ && sc_core::sc_time_to_pending_activity().value() > edge - now))
            sc_core::wait(sc_core::sc_time::from_value(edge - now));
        elapsed_ = std::max(elapsed_, cycle);
    }
    // CNN cycles since the start the controller has reached.
    uint64_t elapsed() const { return elapsed_; }
    // The controller's own time: the edge it has reached. SystemC time may lag
    // behind it (a left-out wait), never in a way anyone can observe.
    uint64_t own_time() const { return edges_.value_at(elapsed_); }
    // A FIFO word that arrives between two CNN clock edges is seen at the next edge.
    uint64_t edge_after(uint64_t arrival) const {
        const double cycles = (sc_core::sc_time::from_value(arrival) - start_).to_seconds() * hz_;
        constexpr double kRounding = 1e-3;  // sc_time's picosecond rounding of earlier edges
        return uint64_t(std::ceil(cycles - kRounding));
    }

private:
    sc_core::sc_time start_;
    double hz_;
    CnnEdges edges_;
    bool defer_waits_;
    uint64_t elapsed_ = 0;
};

// What the controller has seen of the FIFOs: the words that arrived before
// the edge it has reached. The writer may have pushed later words already
// (it runs ahead of SystemC time and stamps each word with its own instant);
// those wait for their edge. A word arriving exactly on that edge is not seen
// yet: a push made at the very instant the controller wakes comes after it,
// as a process whose wait ends at the same instant as an earlier-scheduled one
// runs after it. Only the word whose arrival ended a stall is seen at the
// stall's last edge however it falls on it (exactly on it, or within its
// picosecond rounding), as the push that woke the waiting controller was.
class StreamController::FifoView {
public:
    FifoView(const RunClock& clock, const InputFifos& fifos, uint32_t enabled)
        : clock_(clock), fifos_(fifos), enabled_(enabled) {}

    uint64_t seen_until() const {
        const uint64_t own = clock_.own_time() - 1;
        return admitted_cycle_ == clock_.elapsed() ? std::max(own, admitted_until_) : own;
    }
    // Frame positions every enabled FIFO can deliver now.
    uint64_t queued() const {
        const uint64_t seen = seen_until();
        uint64_t words = ~uint64_t{0};
        for (uint32_t i = 0; i < fifos_.count(); ++i)
            if (enabled_ >> i & 1) words = std::min<uint64_t>(words, fifos_.arrived_by(i, seen));
        return words == ~uint64_t{0} ? 0 : words;
    }
    // The word arriving at `arrival` ended a stall at cycle `edge`.
    void admit(uint64_t edge, uint64_t arrival) {
        admitted_cycle_ = edge;
        admitted_until_ = arrival;
    }

private:
    const RunClock& clock_;
    const InputFifos& fifos_;
    uint32_t enabled_;
    uint64_t admitted_cycle_ = ~uint64_t{0}, admitted_until_ = 0;  // the last stall's edge and arrival
};

// Pops the frame positions the chain consumed from every enabled FIFO into the session.
void StreamController::deliver_consumed(StreamSession& session, uint64_t step_start, uint64_t& popped) {
    if (popped >= session.consumed()) return;
    InputFifos& fifos = fifos_.queues();
    const uint32_t enabled = session.enabled_fifos();
    if (observer_)
        for (uint32_t i = 0; i < fifos.count(); ++i)
            if (enabled >> i & 1) observer_->fifo_popped(step_start, i, session.consumed() - popped);
    for (; popped < session.consumed(); ++popped)
        for (uint32_t i = 0; i < fifos.count(); ++i)
            if (enabled >> i & 1) session.deliver(i, fifos.pop(i));
    fifos_.update_status();
}

// No layer can run until the FIFO word `need_word` arrives: the stall lasts
// until the clock edge that sees the next word to arrive, in any FIFO (then
// the chain is stepped again); those cycles elapse like any other. A word the
// writer has pushed ahead of SystemC time is there already with its instant;
// otherwise wait for the push (a word that arrived by the controller's own
// time ends no cycle).
void StreamController::stall_for_word(StreamSession& session, RunClock& clock, FifoView& view, uint64_t startup) {
    InputFifos& fifos = fifos_.queues();
    std::optional<uint64_t> arrival = fifos.next_arrival_after(view.seen_until());
    if (!arrival) {
        fifos_.wait_for_push();  // no timeout: the run's time limit ends a starved frame
        arrival = fifos.next_arrival_after(view.seen_until());
    }
    const uint64_t edge = arrival ? std::max(clock.edge_after(*arrival), clock.elapsed()) : clock.elapsed();
    if (arrival) view.admit(edge, *arrival);
    const uint64_t now = startup + session.scheduler().cycle();
    if (observer_ && edge > clock.elapsed()) observer_->stalled(now, now + (edge - clock.elapsed()));
    session.add_stall(edge - clock.elapsed());
    clock.advance_to(edge, true);
}

// Lost words never arrive: the frame cannot complete (docs/fifo.md §8). Said once per inference.
void StreamController::warn_dropped(const StreamSession& session, uint64_t need_word, uint64_t dropped_before,
                                    bool& warned) {
    const InputFifos& fifos = fifos_.queues();
    if (warned || fifos.dropped_total() <= dropped_before) return;
    spdlog::warn(
        "{}: waiting for FIFO word {} of {} (REG_IFRM) after {} words were dropped; the inference cannot complete",
        name(), need_word, session.frame_words(), fifos.dropped_total() - dropped_before);
    warned = true;
}

// After the chain: the data of every layer, the timing, and the wait for the
// inference's last cycle, where the completion interrupt comes.
StreamController::Outcome StreamController::finish_run(StreamSession& session, RunClock& clock, uint64_t popped,
                                                       bool capture_layers) {
    Outcome out;
    try {
        out.result = session.finish(capture_layers);
    } catch (const std::exception& e) {
        // A model bug must not take the whole simulation down; the firmware still gets its interrupt.
        spdlog::error("{}: layer engine failed: {}", name(), e.what());
    }
    out.timing = session.timing();
    out.busy_cycles = std::max<uint64_t>(1, out.timing.total());  // session.total_cycles(), timed once
    spdlog::debug(
        "{}: FIFO inference: {} words per FIFO, {} stall cycles, {} CNN cycles in all, chain ends at "
        "cycle {}",
        name(), popped, session.scheduler().stall_cycles(), out.busy_cycles, clock.elapsed());
    if (clock.elapsed() > out.busy_cycles)  // the per-position costs must add up to the layers' cycles (scan_cost.h)
        spdlog::error("{}: FIFO inference: {} cycles have elapsed but the inference counts only {}", name(),
                      clock.elapsed(), out.busy_cycles);
    clock.advance_to(out.busy_cycles, false);
    return out;
}

StreamController::Outcome StreamController::run(StreamSession& session, double hz, bool capture_layers) {
    RunClock clock(hz, observer_ == nullptr);
    // Time advances in chunks so that SystemC time (and the CPU polling FIFO_STAT)
    // follows the accelerator without a context switch per scan position.
    constexpr uint64_t kChunkCycles = 1000;
    InputFifos& fifos = fifos_.queues();
    fifos_.begin_inference();
    starved_ = 0;
    FifoView view(clock, fifos, session.enabled_fifos());
    // The start-up cycles come before the first layer, so the chain's timeline
    // (scan positions and stalls) begins after them.
    const uint64_t startup = TimingModel(timing_).startup_cycles();
    uint64_t popped = 0;
    const uint64_t dropped_before = fifos.dropped_total();
    bool dropped_warned = false;
    positions_run_.assign(observer_ ? session.plan().chain.size() : 0, 0);
    clock.advance_to(startup, false);
    for (;;) {
        // Words move into the chain when the step begins, at this cycle.
        const uint64_t step_start = startup + session.scheduler().cycle();
        const uint64_t available = popped + view.queued();
        // Positions that end before the next chunk's edge follow at once, as
        // the loop would run them: the clock does not move between them, so
        // the FIFOs show the same words (popping a consumed word takes one
        // from `queued` and adds one to `popped`), and the words they consume
        // are popped after them, before any wait, in the same order. Only an
        // observer sees each step's own pops.
        const StreamStep st =
            observer_ ? session.step(available) : session.run(available, clock.elapsed() + kChunkCycles - startup);
        deliver_consumed(session, step_start, popped);
        if (st.kind == StreamStep::Done) break;
        const uint64_t chain_end = startup + session.scheduler().cycle();
        if (observer_ && st.kind == StreamStep::Ran) report_position(session, st, chain_end);
        if (st.kind == StreamStep::Ran) {
            if (chain_end >= clock.elapsed() + kChunkCycles) clock.advance_to(chain_end, true);
            continue;
        }
        if (chain_end > clock.elapsed()) {
            // Catch up with time first: the CPU may push the missing words meanwhile,
            // and an event notified while nobody waits is not remembered.
            clock.advance_to(chain_end, true);
            continue;
        }
        warn_dropped(session, st.need_word, dropped_before, dropped_warned);
        check_starvation(fifos, session.enabled_fifos());
        spdlog::trace("{}: waiting for FIFO word {} of {}", name(), st.need_word, session.frame_words());
        stall_for_word(session, clock, view, startup);
    }
    return finish_run(session, clock, popped, capture_layers);
}

}  // namespace ai8x
