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

StreamController::Outcome StreamController::run(StreamSession& session, double hz, bool capture_layers) {
    // One clock for the whole inference: cycle n of the accelerator is SystemC time
    // start + n / f_CNN. Every wait below goes to such an edge, so the completion
    // interrupt comes exactly cnn_cycles after the start, as the silicon's busy
    // interval (what the firmware's stopwatch measures) does.
    const sc_core::sc_time start = sc_core::sc_time_stamp();
    uint64_t elapsed = 0;  // CNN cycles since `start` the controller has reached
    // Waits until cycle `cycle`. A wait inside the inference (`may_defer`) is
    // left out when no other process has anything scheduled up to and
    // including that edge: nothing can run, look at the FIFOs or push a word
    // before it, so the controller's next actions happen exactly as after the
    // wait, only at an earlier host moment; its next real wait then goes from
    // the SystemC time reached to the later edge, which is where it would
    // have been waiting when anyone else runs. (An activity due exactly at
    // the edge keeps the wait, so processes due at the same instant meet as
    // before.) With an observer (--vcd/--timeline) every wait is kept.
    const bool defer_waits = observer_ == nullptr;
    const CnnEdges edges(start, hz);
    const auto advance_to = [&](uint64_t cycle, bool may_defer) {
        // In SystemC time units: an sc_time is built only for a wait.
        const uint64_t edge = edges.value_at(cycle), now = sc_core::sc_time_stamp().value();
        if (edge > now && !(may_defer && defer_waits && sc_core::sc_time_to_pending_activity().value() > edge - now))
            sc_core::wait(sc_core::sc_time::from_value(edge - now));
        elapsed = std::max(elapsed, cycle);
    };
    // The controller's own time: the edge it has reached. SystemC time may lag
    // behind it (a left-out wait), never in a way anyone can observe.
    const auto own_time = [&] { return edges.value_at(elapsed); };
    // A FIFO word that arrives between two CNN clock edges is seen at the next edge.
    const auto edge_after = [&](uint64_t arrival) -> uint64_t {
        const double cycles = (sc_core::sc_time::from_value(arrival) - start).to_seconds() * hz;
        constexpr double kRounding = 1e-3;  // sc_time's picosecond rounding of earlier edges
        return uint64_t(std::ceil(cycles - kRounding));
    };
    // Time advances in chunks so that SystemC time (and the CPU polling FIFO_STAT)
    // follows the accelerator without a context switch per scan position.
    constexpr uint64_t kChunkCycles = 1000;
    InputFifos& fifos = fifos_.queues();
    fifos_.begin_inference();
    starved_ = 0;
    const uint32_t enabled = session.enabled_fifos();
    // What the controller has seen of the FIFOs: the words that arrived before
    // the edge it has reached. The writer may have pushed later words already
    // (it runs ahead of SystemC time and stamps each word with its own
    // instant); those wait for their edge. A word arriving exactly on that
    // edge is not seen yet: a push made at the very instant the controller
    // wakes comes after it, as a process whose wait ends at the same instant
    // as an earlier-scheduled one runs after it. Only the word whose arrival
    // ended a stall is seen at the stall's last edge however it falls on it
    // (exactly on it, or within its picosecond rounding), as the push that woke
    // the waiting controller was.
    uint64_t admitted_cycle = ~uint64_t{0}, admitted_until = 0;  // the last stall's edge and arrival
    const auto seen_until = [&] {
        return admitted_cycle == elapsed ? std::max(own_time() - 1, admitted_until) : own_time() - 1;
    };
    // Frame positions every enabled FIFO can deliver now.
    const auto queued = [&]() -> uint64_t {
        const uint64_t seen = seen_until();
        uint64_t words = ~uint64_t{0};
        for (uint32_t i = 0; i < fifos.count(); ++i)
            if (enabled >> i & 1) words = std::min<uint64_t>(words, fifos.arrived_by(i, seen));
        return words == ~uint64_t{0} ? 0 : words;
    };
    // The start-up cycles come before the first layer, so the chain's timeline
    // (scan positions and stalls) begins after them.
    const uint64_t startup = TimingModel(timing_).startup_cycles();
    uint64_t popped = 0;
    const uint64_t dropped_before = fifos.dropped_total();
    bool starving_warned = false;
    positions_run_.assign(observer_ ? session.plan().chain.size() : 0, 0);
    advance_to(startup, false);
    for (;;) {
        // Words move into the chain when the step begins, at this cycle.
        const uint64_t step_start = startup + session.scheduler().cycle();
        const StreamStep st = session.step(popped + queued());
        if (popped < session.consumed()) {
            if (observer_)
                for (uint32_t i = 0; i < fifos.count(); ++i)
                    if (enabled >> i & 1) observer_->fifo_popped(step_start, i, session.consumed() - popped);
            for (; popped < session.consumed(); ++popped)
                for (uint32_t i = 0; i < fifos.count(); ++i)
                    if (enabled >> i & 1) session.deliver(i, fifos.pop(i));
            fifos_.update_status();
        }
        if (st.kind == StreamStep::Done) break;
        const uint64_t chain_end = startup + session.scheduler().cycle();
        if (observer_ && st.kind == StreamStep::Ran) report_position(session, st, chain_end);
        if (st.kind == StreamStep::Ran) {
            if (chain_end >= elapsed + kChunkCycles) advance_to(chain_end, true);
            continue;
        }
        if (chain_end > elapsed) {
            // Catch up with time first: the CPU may push the missing words meanwhile,
            // and an event notified while nobody waits is not remembered.
            advance_to(chain_end, true);
            continue;
        }
        if (!starving_warned && fifos.dropped_total() > dropped_before) {
            // Lost words never arrive: the frame cannot complete (docs/fifo.md §8).
            spdlog::warn(
                "{}: waiting for FIFO word {} of {} (REG_IFRM) after {} words were dropped; "
                "the inference cannot complete",
                name(), st.need_word, session.frame_words(), fifos.dropped_total() - dropped_before);
            starving_warned = true;
        }
        check_starvation(fifos, enabled);
        spdlog::trace("{}: waiting for FIFO word {} of {}", name(), st.need_word, session.frame_words());
        // The stall lasts until the clock edge that sees the next word to
        // arrive, in any FIFO (then the chain is stepped again); those cycles
        // elapse like any other. A word the writer has pushed ahead of SystemC
        // time is there already with its instant; otherwise wait for the push
        // (a word that arrived by the controller's own time ends no cycle).
        std::optional<uint64_t> arrival = fifos.next_arrival_after(seen_until());
        if (!arrival) {
            fifos_.wait_for_push();  // no timeout: the run's time limit ends a starved frame
            arrival = fifos.next_arrival_after(seen_until());
        }
        const uint64_t edge = arrival ? std::max(edge_after(*arrival), elapsed) : elapsed;
        if (arrival) {
            admitted_cycle = edge;
            admitted_until = *arrival;
        }
        if (observer_ && edge > elapsed)
            observer_->stalled(startup + session.scheduler().cycle(),
                               startup + session.scheduler().cycle() + (edge - elapsed));
        session.add_stall(edge - elapsed);
        advance_to(edge, true);
    }
    Outcome out;
    try {
        out.result = session.finish(capture_layers);
    } catch (const std::exception& e) {
        // A model bug must not take the whole simulation down; the firmware still gets its interrupt.
        spdlog::error("{}: layer engine failed: {}", name(), e.what());
    }
    out.timing = session.timing();
    out.busy_cycles = std::max<uint64_t>(1, session.total_cycles());
    spdlog::debug(
        "{}: FIFO inference: {} words per FIFO, {} stall cycles, {} CNN cycles in all, chain ends at "
        "cycle {}",
        name(), popped, session.scheduler().stall_cycles(), out.busy_cycles, elapsed);
    if (elapsed > out.busy_cycles)  // the per-position costs must add up to the layers' cycles (scan_cost.h)
        spdlog::error("{}: FIFO inference: {} cycles have elapsed but the inference counts only {}", name(), elapsed,
                      out.busy_cycles);
    advance_to(out.busy_cycles, false);  // the completion interrupt comes at this very edge
    return out;
}

}  // namespace ai8x
