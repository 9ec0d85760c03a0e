// The streaming controller (cnn.stream): runs an inference whose input comes
// through the FIFOs, and interleaves streaming layers (docs/streaming.md §9.6).
// It drives the StreamSession's scan chain against SystemC time on the CNN
// clock, moves FIFO words into the session as the chain consumes them, and
// stalls (waits for the next push) when a FIFO runs dry.
#pragma once

#include <cstdint>
#include <vector>

#include <systemc>

#include "model/accel_state.h"
#include "model/activity_observer.h"
#include "model/engine/layer_engine.h"
#include "model/fifo/fifo_block.h"
#include "model/timing/inference_cycles.h"
#include "tlm/device_config.h"

namespace ai8x {

class StreamSession;
struct StreamStep;

class StreamController : public sc_core::sc_module {
public:
    StreamController(sc_core::sc_module_name name, const AccelTiming& timing, InputFifoBlock& fifos);

    struct Outcome {
        EngineResult result;
        InferenceCycles timing;
        uint64_t busy_cycles = 0;
    };

    // Runs the whole FIFO-fed inference of `session` from the current SystemC
    // time, on a CNN clock of `cnn_hz`. Must be called from an SC_THREAD; it
    // returns at the inference's last cycle.
    Outcome run(StreamSession& session, double cnn_hz, bool capture_layers);

    const char* kind() const override { return "ai8x_stream_controller"; }

    // Enabled FIFOs the last FIFO-fed inference waited for while another
    // enabled FIFO was full (bit i = FIFO i): firmware that never writes them
    // deadlocks (docs/fifo.md §7). Cleared when an inference starts.
    uint32_t starved_fifos() const { return starved_; }

    // Scan positions, stalls and FIFO pops go to `observer` (null: nowhere).
    void set_observer(ActivityObserver* observer) { observer_ = observer; }

private:
    class RunClock;
    class FifoView;
    void report_position(const StreamSession& session, const StreamStep& step, uint64_t end);
    void deliver_consumed(StreamSession& session, uint64_t step_start, uint64_t& popped);
    void stall_for_word(StreamSession& session, RunClock& clock, FifoView& view, uint64_t startup);
    void warn_dropped(const StreamSession& session, uint64_t need_word, uint64_t dropped_before, bool& warned);
    Outcome finish_run(StreamSession& session, RunClock& clock, uint64_t popped, bool capture_layers);

    const AccelTiming& timing_;
    InputFifoBlock& fifos_;
    void check_starvation(const InputFifos& fifos, uint32_t enabled);

    ActivityObserver* observer_ = nullptr;
    uint32_t starved_ = 0;
    // Only for the observer: scan positions each chain layer has run. A member,
    // not a local of run(): a run stopped mid-inference never unwinds the
    // sequencer's thread, and what only its stack holds would never be freed.
    std::vector<uint64_t> positions_run_;
};

}  // namespace ai8x
