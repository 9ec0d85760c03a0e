// Unwrapped record of everything written into one streaming input ring
// (docs/streaming.md §4.1, §4.7): by the FIFOs for layer 0, by the producer
// layer for later layers. Together with the scheduler's record of how far the
// writer had got when each read happened, it answers what the hardware's ring
// slot held at that moment -- the right word when the registers are
// consistent, an older or newer one (or whatever data memory held before the
// inference) when they are not.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "model/accel_state.h"
#include "model/engine/input_fetch.h"
#include "model/engine/output_writer.h"

namespace ai8x {

class RingShadow : public OutputWordSink {
public:
    // `start`: word offset inside each instance where the ring begins (the
    // writer's pointer low bits); `size`: LREG_FMAX of the reading layer;
    // `unit`: words the writer produces per step of its progress count
    // (producer: its write stride per output pixel; FIFO: one word).
    RingShadow(AcceleratorState& state, uint32_t start, uint32_t size, uint32_t unit);

    uint32_t* word(uint32_t instance, uint64_t offset) override;
    // Ring words only (first at or above the ring's start): the writes word()
    // would take one by one, stored in the same place.
    uint32_t* span(uint32_t instance, uint64_t first, uint64_t last, uint8_t*& written) override;

    // Contents of slot `slot` (word offset inside `instance`) after the writer
    // had made `progress` steps; slots it had not reached keep `before`'s word.
    uint32_t slot_value(uint32_t instance, uint32_t slot, uint64_t progress,
                        const std::vector<std::vector<uint32_t>>& before) const;
    // The word written at unwrapped offset `offset` when, after `progress`
    // steps, it is still the last one written to its slot (a reader whose
    // ring is this one: same start and size; the registers' consistent case),
    // else null: slot_value() then tells what the slot holds.
    const uint32_t* current(uint32_t instance, uint64_t offset, uint64_t progress) const;
    uint32_t start() const { return start_; }
    uint32_t size() const { return size_; }

    // Leaves data memory as the hardware does: each slot holds the last word written to it.
    void commit() const;

private:
    // The unwrapped words written into one data memory instance. `length` is
    // one past the highest offset written; the vectors grow ahead of it (by
    // doubling, so a layer's writes do not reallocate per word) and hold
    // unwritten zeros beyond it. An instance never written has length 0.
    struct Instance {
        std::vector<uint32_t> words;
        std::vector<uint8_t> written;
        uint64_t length = 0;
    };
    // Makes `in` hold unwrapped offset d (and counts it as written up to there).
    static void grow(Instance& in, uint64_t d);
    // One past the highest unwrapped offset the writer had produced after `progress` steps.
    uint64_t limit(const Instance& in, uint64_t progress) const {
        return progress >= in.length ? in.length : std::min<uint64_t>(in.length, progress * unit_);
    }

    AcceleratorState& state_;
    uint32_t start_, size_, unit_;
    std::vector<Instance> instances_;  // indexed by data memory instance
};

// The reads of one streaming layer: through `ring` at the progress the scheduler recorded per position.
class RingSource : public InputWordSource {
public:
    RingSource(const RingShadow& ring, const std::vector<uint64_t>& progress, uint32_t read_offset, uint32_t size,
               const std::vector<std::vector<uint32_t>>& before)
        : ring_(ring),
          progress_(progress),
          read_offset_(read_offset),
          size_(size ? size : 1),
          before_(before),
          own_ring_(read_offset_ == ring.start() && size_ == ring.size()) {}

    uint32_t word(uint32_t instance, uint64_t offset, uint64_t position) const override;

private:
    const RingShadow& ring_;
    const std::vector<uint64_t>& progress_;
    uint32_t read_offset_, size_;  // size_ at least 1 (an LREG_FMAX of 0 reads like 1)
    const std::vector<std::vector<uint32_t>>& before_;
    bool own_ring_;  // reads the ring its producer writes (same start and size): current() may answer
};

}  // namespace ai8x
