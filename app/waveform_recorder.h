// Records what `run --vcd` and `run --timeline` show: the accelerator's
// layers, scan positions, stalls and FIFO traffic (as ActivityObserver), the
// CNN interrupt line and the CPU's WFI sleep. It only stores the events; the
// writers (app/waveform_vcd.h, app/timeline_writer.h) turn them into files
// when the run is over, since the model knows a layer's cycles before
// SystemC time reaches them and reports the events out of time order.
//
// Times are SystemC times (ticks of the time resolution); cycles of an
// inference become times as the sequencer computes them, start + cycle / hz.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <systemc>

#include "model/activity_observer.h"

namespace ai8x {

class WaveformRecorder : public ActivityObserver {
public:
    struct Inference {
        sc_core::sc_time start;
        double hz = 0;
        std::optional<uint64_t> cycles;  // set when the inference finished
    };
    struct Layer {
        std::size_t inference = 0;  // index into inferences()
        int layer = 0;
        uint64_t first = 0, end = 0;  // cycles of the inference, end exclusive
        uint32_t quadrants = 0;       // bit q: quadrant q takes part
        uint32_t passes = 1;
        bool streaming = false;
    };
    // Consecutive scan positions of one streaming layer within one row, merged.
    struct PositionRun {
        std::size_t inference = 0;
        int layer = 0;
        uint64_t first = 0, end = 0;
        uint64_t rows_done = 0;  // rows of its scan completed at `end`
    };
    struct Stall {
        std::size_t inference = 0;
        uint64_t first = 0, end = 0;
    };
    struct FifoChange {
        enum Kind { Push, Pop, Clear };
        sc_core::sc_time at;
        unsigned fifo = 0;
        Kind kind = Push;
        uint64_t words = 1;
    };
    struct Edge {  // a 1-bit line changing level
        sc_core::sc_time at;
        bool level = false;
    };

    // ActivityObserver
    void inference_started(sc_core::sc_time start, double hz) override;
    void layer_ran(int layer, uint64_t first, uint64_t end, uint32_t quadrants, uint32_t passes,
                   bool streaming) override;
    void stream_position(int layer, uint64_t first, uint64_t end, uint64_t rows_done) override;
    void stalled(uint64_t first, uint64_t end) override;
    void fifo_popped(uint64_t cycle, unsigned fifo, uint64_t words) override;
    void fifo_pushed(sc_core::sc_time at, unsigned fifo) override;
    void fifo_cleared(sc_core::sc_time at, unsigned fifo) override;
    void inference_finished(uint64_t cycles) override;

    void irq_changed(bool level, sc_core::sc_time at) { irq_.push_back({at, level}); }
    void sleep_changed(bool asleep, sc_core::sc_time at) { sleep_.push_back({at, asleep}); }
    // The run ended at `at`: lines still high stay so until then.
    void run_ended(sc_core::sc_time at) { end_ = at; }

    // Time of `cycle` of inference `inference`.
    sc_core::sc_time time_of(std::size_t inference, uint64_t cycle) const;

    const std::vector<Inference>& inferences() const { return inferences_; }
    const std::vector<Layer>& layers() const { return layers_; }
    const std::vector<PositionRun>& positions() const { return positions_; }
    const std::vector<Stall>& stalls() const { return stalls_; }
    const std::vector<FifoChange>& fifo_changes() const { return fifo_; }
    const std::vector<Edge>& irq() const { return irq_; }
    const std::vector<Edge>& sleep() const { return sleep_; }
    sc_core::sc_time end() const { return end_; }

private:
    std::size_t current() const { return inferences_.empty() ? 0 : inferences_.size() - 1; }

    std::vector<Inference> inferences_;
    std::vector<Layer> layers_;
    std::vector<PositionRun> positions_;
    std::vector<Stall> stalls_;
    std::vector<FifoChange> fifo_;
    std::vector<Edge> irq_, sleep_;
    sc_core::sc_time end_;
};

}  // namespace ai8x
