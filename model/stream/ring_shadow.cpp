#include "model/stream/ring_shadow.h"

#include <algorithm>

namespace ai8x {

RingShadow::RingShadow(AcceleratorState& state, uint32_t start, uint32_t size, uint32_t unit)
    : state_(state),
      start_(start),
      size_(std::max<uint32_t>(1, size)),
      unit_(std::max<uint32_t>(1, unit)),
      instances_(state.data_sram.size()) {}

uint32_t* RingShadow::word(uint32_t instance, uint64_t offset) {
    if (instance >= state_.data_sram.size()) return nullptr;
    if (offset < start_) {
        // Below the ring: the pointer arithmetic never wraps there, the word goes to memory as it is.
        auto& mem = state_.data_sram[instance];
        if (offset >= mem.size()) return nullptr;
        state_.data_written[instance][offset] = 1;
        return &mem[offset];
    }
    Instance& in = instances_[instance];
    const uint64_t d = offset - start_;
    grow(in, d);
    in.written[d] = 1;
    return &in.words[d];
}

void RingShadow::grow(Instance& in, uint64_t d) {
    if (d >= in.words.size()) {
        const uint64_t grown = std::max<uint64_t>(d + 1, 2 * in.words.size());
        in.words.resize(grown, 0);
        in.written.resize(grown, 0);
    }
    if (d >= in.length) in.length = d + 1;
}

uint32_t* RingShadow::span(uint32_t instance, uint64_t first, uint64_t last, uint8_t*& written) {
    if (instance >= instances_.size() || first < start_ || last < first) return nullptr;
    Instance& in = instances_[instance];
    // The caller writes `last`, so it becomes the highest offset written, as
    // word() by word() would make it.
    grow(in, last - start_);
    written = &in.written[first - start_];
    return &in.words[first - start_];
}

uint32_t RingShadow::slot_value(uint32_t instance, uint32_t slot, uint64_t progress,
                                const std::vector<std::vector<uint32_t>>& before) const {
    const auto fallback = [&]() -> uint32_t {
        if (instance >= before.size() || slot >= before[instance].size()) return 0;
        return before[instance][slot];
    };
    if (slot < start_ || slot >= uint64_t{start_} + size_) return fallback();
    if (instance >= instances_.size()) return fallback();
    const Instance& in = instances_[instance];
    const uint64_t s = slot - start_;
    // Words the writer had produced: unwrapped offsets below progress * unit
    // (an instance never written has length 0: memory as it was).
    const uint64_t limit = this->limit(in, progress);
    if (limit <= s) return fallback();
    // The latest unwrapped word that maps to this slot, then back over words never written.
    int64_t d = static_cast<int64_t>(s + (limit - 1 - s) / size_ * size_);
    while (d >= 0 && !in.written[static_cast<uint64_t>(d)]) d -= size_;
    return d >= 0 ? in.words[static_cast<uint64_t>(d)] : fallback();
}

// Each slot ends with the last word written to it: for every slot, the
// highest unwrapped offset of its lap that was written (the last lap's offset,
// or an earlier lap's where the last one skipped it), not every lap's word.
const uint32_t* RingShadow::current(uint32_t instance, uint64_t offset, uint64_t progress) const {
    if (offset < start_ || instance >= instances_.size()) return nullptr;
    const Instance& in = instances_[instance];
    const uint64_t d = offset - start_, end = limit(in, progress);
    // Written before `end`, and no later lap of its slot before `end`.
    if (d >= end || d + size_ < end || !in.written[d]) return nullptr;
    return &in.words[d];
}

void RingShadow::commit() const {
    for (std::size_t instance = 0; instance < instances_.size(); ++instance) {
        const Instance& in = instances_[instance];
        auto& mem = state_.data_sram[instance];
        const uint64_t last_lap = in.length > size_ ? in.length - size_ : 0;
        for (uint64_t top = last_lap; top < in.length; ++top) {
            const uint64_t slot = start_ + top % size_;
            if (slot >= mem.size()) continue;
            int64_t d = static_cast<int64_t>(top);
            while (d >= 0 && !in.written[static_cast<uint64_t>(d)]) d -= size_;
            if (d < 0) continue;
            mem[slot] = in.words[static_cast<uint64_t>(d)];
            state_.data_written[instance][slot] = 1;  // the ring's writer wrote it (unwritten-read warnings)
        }
    }
}

uint32_t RingSource::word(uint32_t instance, uint64_t offset, uint64_t position) const {
    const uint64_t progress = position < progress_.size() ? progress_[position] : ~uint64_t{0} / 2;
    // Usually the word the reader means is still in its slot: found without the slot's arithmetic.
    if (own_ring_)
        if (const uint32_t* word = ring_.current(instance, read_offset_ + offset, progress)) return *word;
    const uint64_t slot = read_offset_ + offset % size_;
    return ring_.slot_value(instance, static_cast<uint32_t>(slot), progress, before_);
}

}  // namespace ai8x
