// What a logic analyser on the accelerator would show, reported as events:
// the model computes a layer at a time and times it separately, so the signal
// changes are not simulated clock by clock but told to an observer when they
// become known (app/waveform_recorder.h turns them into a VCD file and a
// timeline). The accelerator holds a null observer unless `run --vcd` or
// `run --timeline` asks for one, so an ordinary run pays one pointer test per
// event site.
//
// Cycles are counted from the start of the current inference on its CNN
// clock: cycle n is at start + n / hz, rounded to the SystemC time resolution
// exactly as the sequencer rounds its waits.
#pragma once

#include <cstdint>

#include <systemc>

namespace ai8x {

class ActivityObserver {
public:
    virtual ~ActivityObserver() = default;

    // The sequencer started an inference at `start` on a CNN clock of `hz`.
    virtual void inference_started(sc_core::sc_time start, double hz) = 0;
    // A layer occupied cycles [first, end) of the inference. `quadrants`: bit q
    // set when quadrant q has processors in the layer; `passes`: input passes
    // per position (multi-pass layers). `streaming`: a layer of the streaming
    // chain, whose span overlaps the other chain layers (its positions come
    // through stream_position()).
    virtual void layer_ran(int layer, uint64_t first, uint64_t end, uint32_t quadrants, uint32_t passes,
                           bool streaming) = 0;
    // A streaming layer scanned one position in cycles [first, end); it has
    // now completed `rows_done` rows of its padded input scan.
    virtual void stream_position(int layer, uint64_t first, uint64_t end, uint64_t rows_done) = 0;
    // The CNN waited for FIFO input in cycles [first, end).
    virtual void stalled(uint64_t first, uint64_t end) = 0;
    // The CNN took `words` words out of input FIFO `fifo` at `cycle`.
    virtual void fifo_popped(uint64_t cycle, unsigned fifo, uint64_t words) = 0;
    // The firmware queued a word into FIFO `fifo`, seen by the accelerator at
    // `at` (dropped words are not queued).
    virtual void fifo_pushed(sc_core::sc_time at, unsigned fifo) = 0;
    // FIFO `fifo` was emptied (enable bit cleared, reset) at `at`.
    virtual void fifo_cleared(sc_core::sc_time at, unsigned fifo) = 0;
    // The inference ends after `cycles` cycles (its completion interrupt follows).
    virtual void inference_finished(uint64_t cycles) = 0;
};

}  // namespace ai8x
