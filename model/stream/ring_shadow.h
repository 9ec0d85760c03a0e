// Unwrapped record of everything written into one streaming input ring
// (docs/streaming.md §4.1, §4.7): by the FIFOs for layer 0, by the producer
// layer for later layers. Together with the scheduler's record of how far the
// writer had got when each read happened, it answers what the hardware's ring
// slot held at that moment -- the right word when the registers are
// consistent, an older or newer one (or whatever data memory held before the
// inference) when they are not.
#pragma once

#include <cstdint>
#include <map>
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

    // Contents of slot `slot` (word offset inside `instance`) after the writer
    // had made `progress` steps; slots it had not reached keep `before`'s word.
    uint32_t slot_value(uint32_t instance, uint32_t slot, uint64_t progress,
                        const std::vector<std::vector<uint32_t>>& before) const;

    // Leaves data memory as the hardware does: each slot holds the last word written to it.
    void commit() const;

private:
    struct Instance {
        std::vector<uint32_t> words;
        std::vector<uint8_t> written;
    };
    AcceleratorState& state_;
    uint32_t start_, size_, unit_;
    std::map<uint32_t, Instance> instances_;
};

// The reads of one streaming layer: through `ring` at the progress the scheduler recorded per position.
class RingSource : public InputWordSource {
public:
    RingSource(const RingShadow& ring, const std::vector<uint64_t>& progress, uint32_t read_offset, uint32_t size,
               const std::vector<std::vector<uint32_t>>& before)
        : ring_(ring), progress_(progress), read_offset_(read_offset), size_(size), before_(before) {}

    uint32_t word(uint32_t instance, uint64_t offset, uint64_t position) const override;
    // word() only reads the ring (RingShadow::slot_value is const, no cache).
    bool concurrent_reads() const override { return true; }

private:
    const RingShadow& ring_;
    const std::vector<uint64_t>& progress_;
    uint32_t read_offset_, size_;
    const std::vector<std::vector<uint32_t>>& before_;
};

}  // namespace ai8x
