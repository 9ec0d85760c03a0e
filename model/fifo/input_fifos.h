// The four input FIFOs of the accelerator (docs/fifo.md): bounded queues of
// 32-bit words that the CPU fills through FIFO_WR<i> and the accelerator
// drains when the stream scheduler moves frame words into data memory. Pure
// storage and bookkeeping; the SystemC side (events, time) lives in the
// Accelerator. Each word carries its arrival: the instant its writer made the
// push, as a count of SystemC time units (sc_time::value()), so a writer may
// push ahead of SystemC time and the reader still takes the word only once
// its own time has reached that instant.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace ai8x {

class InputFifos {
public:
    InputFifos(uint32_t count, uint32_t depth);

    enum class Push { Queued, DroppedFull, DroppedDisabled };
    // A firmware write to FIFO `fifo`; a full or disabled FIFO loses the word (docs/fifo.md §5).
    Push push(uint32_t fifo, uint32_t word, bool enabled, uint64_t arrival = 0);
    // Oldest word of FIFO `fifo` (0 when empty; callers check occupancy first).
    uint32_t pop(uint32_t fifo);
    void clear(uint32_t fifo);

    uint32_t occupancy(uint32_t fifo) const { return queues_.at(fifo).size; }
    // Words of FIFO `fifo` that had arrived by `time` (arrival <= time).
    uint32_t arrived_by(uint32_t fifo, uint64_t time) const;
    // The earliest arrival after `time` among the words of every FIFO: when the
    // next word reaches a reader that has seen everything up to `time`.
    std::optional<uint64_t> next_arrival_after(uint64_t time) const;
    uint32_t depth() const { return depth_; }
    uint32_t count() const { return static_cast<uint32_t>(queues_.size()); }
    // FIFO_STAT: bit i set while FIFO i holds `depth` words.
    uint32_t full_flags() const { return full_; }
    // Of the FIFOs in `enabled` (bit i = FIFO i), those that are empty while
    // another of them is full: the accelerator takes one word from every
    // enabled FIFO per frame position, so the full one cannot drain until the
    // empty ones get a word (docs/fifo.md §7). 0 when none is full.
    uint32_t starved_by_full(uint32_t enabled) const;
    // Words lost to full or disabled FIFOs since construction, per FIFO.
    uint64_t dropped(uint32_t fifo) const { return dropped_.at(fifo); }
    uint64_t dropped_total() const { return dropped_total_; }
    // Words queued in FIFO `fifo`, oldest first (tests, diagnostics).
    std::vector<uint32_t> contents(uint32_t fifo) const;

private:
    uint32_t depth_;
    struct Entry {
        uint32_t word;
        uint64_t arrival;
    };
    // One FIFO: a ring of depth_ entries, oldest first from `head` (a deque
    // allocated and freed its blocks as the words went through: the per-word
    // path of a FIFO-fed inference). A writer's pushes come in its own time
    // order, so arrivals never decrease along a queue.
    struct Queue {
        std::vector<Entry> ring;
        uint32_t head = 0, size = 0;
        // Ring index of the n-th oldest word (n < ring.size(): no division on the per-word path).
        uint32_t index(uint32_t n) const {
            const uint32_t i = head + n;
            return i >= ring.size() ? i - static_cast<uint32_t>(ring.size()) : i;
        }
        const Entry& at(uint32_t n) const { return ring[index(n)]; }
        bool empty() const { return size == 0; }
    };
    std::vector<Queue> queues_;
    // Bit i: FIFO i holds depth_ words. Kept by every change of a queue, as
    // the status register reads it on each push and pop.
    uint32_t full_ = 0;
    void update_full(uint32_t fifo) {
        if (fifo >= 32) return;  // FIFO_STAT has a bit for the first 32 only
        full_ = queues_[fifo].size >= depth_ ? full_ | (1u << fifo) : full_ & ~(1u << fifo);
    }
    std::vector<uint64_t> dropped_;
    uint64_t dropped_total_ = 0;  // the sum of dropped_, asked on every stall
};

}  // namespace ai8x
