#include "app/waveform_recorder.h"

namespace ai8x {

void WaveformRecorder::inference_started(sc_core::sc_time start, double hz) {
    inferences_.push_back({start, hz, std::nullopt});
}

void WaveformRecorder::layer_ran(int layer, uint64_t first, uint64_t end, uint32_t quadrants, uint32_t passes,
                                 bool streaming) {
    layers_.push_back({current(), layer, first, end, quadrants, passes, streaming});
}

void WaveformRecorder::stream_position(int layer, uint64_t first, uint64_t end, uint64_t rows_done) {
    // A streaming layer scans thousands of positions; one record per layer
    // switch or completed row keeps the file (and the cost) small.
    if (!positions_.empty()) {
        PositionRun& last = positions_.back();
        if (last.inference == current() && last.layer == layer && last.end == first && last.rows_done == rows_done) {
            last.end = end;
            return;
        }
    }
    positions_.push_back({current(), layer, first, end, rows_done});
}

void WaveformRecorder::stalled(uint64_t first, uint64_t end) { stalls_.push_back({current(), first, end}); }

void WaveformRecorder::fifo_popped(uint64_t cycle, unsigned fifo, uint64_t words) {
    fifo_.push_back({time_of(current(), cycle), fifo, FifoChange::Pop, words});
}

void WaveformRecorder::fifo_pushed(sc_core::sc_time at, unsigned fifo) {
    fifo_.push_back({at, fifo, FifoChange::Push, 1});
}

void WaveformRecorder::fifo_cleared(sc_core::sc_time at, unsigned fifo) {
    fifo_.push_back({at, fifo, FifoChange::Clear, 0});
}

void WaveformRecorder::inference_finished(uint64_t cycles) {
    if (!inferences_.empty()) inferences_.back().cycles = cycles;
}

sc_core::sc_time WaveformRecorder::time_of(std::size_t inference, uint64_t cycle) const {
    if (inference >= inferences_.size()) return sc_core::SC_ZERO_TIME;
    const Inference& i = inferences_[inference];
    // The same rounding as the sequencer's and the stream controller's waits.
    return i.start + sc_core::sc_time(double(cycle) / i.hz, sc_core::SC_SEC);
}

}  // namespace ai8x
