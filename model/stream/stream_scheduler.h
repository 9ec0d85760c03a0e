// Count-level scheduler of the streaming chain (docs/streaming.md §4.2-§4.5,
// §6.1, §6.2). It knows no data, only counts: frame words moved out of the
// FIFOs, scan positions each chain layer has completed and output pixels each
// producer has written. Each step() runs one scan position of one layer (the
// deepest ready one), or reports that the chain waits for FIFO data, exactly
// as the registers (stream start, deltas, rollover) allow it; so smaller
// deltas than the generator's make consumers read early, as the hardware would,
// and the hazard checks report it.
//
// What it records for the data path: for every real read of every chain layer,
// how far its producer had got at that moment (FIFO words received for layer
// 0, producer output pixels written for later layers). The stream engine uses
// this to give each read the ring contents the hardware would see.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "model/engine/layer_engine.h"
#include "model/stream/stream_plan.h"

namespace ai8x {

struct StreamStep {
    enum Kind { Ran, NeedFifo, Done };
    Kind kind = Done;
    int layer = -1;          // Ran: the layer that ran one scan position
    uint64_t cycles = 0;     // Ran: its CNN cycles
    uint64_t need_word = 0;  // NeedFifo: index (per enabled FIFO) of the frame word needed next
};

// Cycles of scan position (row, col) of chain layer `index` (padded frame coordinates).
using PositionCost = std::function<uint64_t(std::size_t index, uint32_t row, uint32_t col)>;

class StreamScheduler {
public:
    enum class Policy { DeepestFirst, ProducerFirst };  // ProducerFirst only as a negative control

    StreamScheduler(const StreamPlan& plan, PositionCost cost, Policy policy = Policy::DeepestFirst);

    // Runs §4.5 once. `words_available`: frame words per enabled FIFO pushed so
    // far in this inference (consumed ones included).
    StreamStep step(uint64_t words_available);
    // Steps on with the same words while positions run and the chain's cycle
    // stays below `cycle_limit`: exactly the steps step() would make one by
    // one, without returning between them. Returns the last step.
    StreamStep run(uint64_t words_available, uint64_t cycle_limit);

    bool done() const;
    uint64_t consumed_words() const { return words_; }
    uint64_t cycle() const { return cycle_; }  // position costs + stalls so far
    uint64_t stall_cycles() const { return stalls_; }
    void add_stall(uint64_t cycles);

    const std::vector<StreamHazard>& hazards() const { return hazards_; }

    // Per chain layer: producer progress at each real read, index i * PW + j
    // (layer 0: frame words received; later layers: producer output pixels written).
    const std::vector<std::vector<uint64_t>>& read_progress() const { return progress_; }

    struct LayerReport {
        int layer = -1;
        uint64_t work_cycles = 0;                  // sum of its position costs
        uint64_t first_cycle = 0, last_cycle = 0;  // span on the chain's timeline
        uint64_t first_read_cycle = 0;             // when its first real (non-padding) read happened
        int64_t min_margin = 0;                    // smallest T - N over its real reads (layers > 0)
        uint64_t max_ring_pixels = 0;              // most ring pixels still needed at a read
        uint64_t ring_pixels = 0;                  // ring capacity in pixels
    };
    const std::vector<LayerReport>& layers() const { return reports_; }

    // Producer output pixels written after `positions` scan positions of chain layer `index`.
    uint64_t written_pixels(std::size_t index, uint64_t positions) const;
    // §4.4 threshold and §6.1 geometric need of real read (i, j) of chain layer index > 0.
    int64_t threshold(std::size_t index, uint32_t i, uint32_t j) const;
    int64_t need(std::size_t index, uint32_t i, uint32_t j) const;
    uint64_t window_end(std::size_t index, uint32_t i, uint32_t j) const;

private:
    struct Real {
        bool real;
        uint32_t i, j;
    };
    // A chain layer's scan position, with its row and column kept as it
    // advances (no division per step).
    struct Cursor {
        uint64_t pos = 0;
        uint32_t row = 0, col = 0;
    };
    Real real_at(std::size_t index) const;
    // What ready() waits for at the current scan position of a chain layer,
    // found once when the position changes (ready() is asked for every layer
    // at every step): the read there, and the count its producer must reach
    // (layer 0: frame pixels received; later layers: producer scan positions,
    // or output pixels written with release on the window).
    struct Wait {
        Real at{false, 0, 0};
        int64_t need = 0;
    };
    void find_wait(std::size_t index);
    bool ready(std::size_t index) const;
    void run_position(std::size_t index);
    void transfer_words(uint64_t words_available);
    uint64_t transfer_limit() const;
    uint64_t layer0_oldest_pixel() const;
    StreamStep ran(std::size_t index, uint64_t before) const;
    uint64_t received_pixels() const;
    void check_read(std::size_t index, uint32_t i, uint32_t j);
    void report_early_read(std::size_t index, uint32_t i, uint32_t j, int64_t t, int64_t n, uint64_t last);
    void report_stale_read(std::size_t index, uint32_t i, uint32_t j, uint64_t last, uint64_t written);
    void report_overwritten_read(std::size_t index, uint32_t i, uint32_t j, uint64_t first, uint64_t written);
    std::size_t deepest_ready() const;
    void overwrite_needed_slot();
    StreamStep force_unfinished();
    void report(std::size_t index, const std::string& kind, uint64_t pixel, const std::string& message);
    uint32_t slot_address(std::size_t index, uint64_t pixel) const;

    const StreamPlan& plan_;
    PositionCost cost_;
    Policy policy_;
    std::vector<Cursor> at_;   // P[l]
    std::vector<Wait> waits_;  // at at_[l]
    uint64_t words_ = 0;       // frame words moved into the ring (per FIFO)
    // Words layer 0's ring admits at its current position (§4.3), found when
    // that position changes: the transfer's bound, with REG_IFRM's.
    uint64_t transfer_limit_ = 0;
    uint64_t cycle_ = 0, stalls_ = 0;
    std::vector<StreamHazard> hazards_;
    std::vector<std::vector<uint64_t>> progress_;
    std::vector<LayerReport> reports_;
};

}  // namespace ai8x
