// One inference in FIFO and/or streaming mode, as the sequencer drives it
// (docs/streaming.md §4.5, §9 step 6): the plan decoded from the registers at
// start, the count-level scheduler stepped against FIFO arrivals, the words
// the FIFOs delivered, and at the end the data computation of the chain (with
// each read seeing the ring as the schedule left it) followed by the
// non-streaming layers. Without FIFO mode and streaming it is not needed.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "model/engine/layer_engine.h"
#include "model/stream/stream_plan.h"
#include "model/stream/stream_scheduler.h"
#include "model/timing/inference_cycles.h"
#include "model/timing/scan_cost.h"

namespace ai8x {

class StreamSession {
public:
    StreamSession(AcceleratorState& state, const AccelTiming& timing,
                  StreamScheduler::Policy policy = StreamScheduler::Policy::DeepestFirst);

    bool fifo_mode() const { return plan_.fifo_mode; }
    bool streaming() const { return !plan_.chain.empty(); }
    uint32_t enabled_fifos() const { return plan_.fifo_enables; }  // bit i: FIFO i carries data
    uint64_t frame_words() const { return plan_.frame_words; }     // words per enabled FIFO
    const StreamPlan& plan() const { return plan_; }

    // One scheduler step; `words_available` = frame words per enabled FIFO pushed so far.
    StreamStep step(uint64_t words_available) { return scheduler_->step(words_available); }
    // Steps on while positions run and the chain's cycle stays below `cycle_limit` (StreamScheduler::run).
    StreamStep run(uint64_t words_available, uint64_t cycle_limit) {
        return scheduler_->run(words_available, cycle_limit);
    }
    uint64_t consumed() const { return scheduler_->consumed_words(); }
    // Hands over one word the accelerator moved out of FIFO `fifo` (oldest first).
    void deliver(unsigned fifo, uint32_t word);
    void add_stall(uint64_t cycles) { scheduler_->add_stall(cycles); }

    // Runs the scheduler to the end assuming every frame word is there (unit
    // tests, the engine-only vector test) and delivers `words[fifo]`.
    void run_with_frame(const std::vector<std::vector<uint32_t>>& words);

    // Computes the chain with the delivered words, then the layers after it up to
    // REG_LCNT_MAX; leaves data memory as the hardware does.
    EngineResult finish(bool capture_layers);

    const std::vector<StreamHazard>& hazards() const { return scheduler_->hazards(); }
    const StreamScheduler& scheduler() const { return *scheduler_; }
    // Per-layer cycles (chain layers: their own positions; the chain overlaps them).
    InferenceCycles timing() const;
    // Start-up + chain timeline (positions + stalls) + the non-streaming layers.
    uint64_t total_cycles() const;

private:
    AcceleratorState& state_;
    AccelTiming timing_;
    StreamPlan plan_;
    std::vector<ScanCost> costs_;
    std::unique_ptr<StreamScheduler> scheduler_;
    std::vector<std::vector<uint32_t>> frame_;  // per FIFO, words delivered
};

}  // namespace ai8x
