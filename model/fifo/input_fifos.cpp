#include "model/fifo/input_fifos.h"

#include <algorithm>

namespace ai8x {

InputFifos::InputFifos(uint32_t count, uint32_t depth) : depth_(depth), queues_(count), dropped_(count, 0) {
    for (uint32_t i = 0; i < count; ++i) {
        queues_[i].ring.resize(std::max<uint32_t>(1, depth));
        update_full(i);
    }
}

InputFifos::Push InputFifos::push(uint32_t fifo, uint32_t word, bool enabled, uint64_t arrival) {
    if (!enabled) {
        ++dropped_.at(fifo);
        ++dropped_total_;
        return Push::DroppedDisabled;
    }
    Queue& q = queues_.at(fifo);
    if (q.size >= depth_) {
        ++dropped_[fifo];
        ++dropped_total_;
        return Push::DroppedFull;
    }
    q.ring[q.index(q.size)] = {word, arrival};
    ++q.size;
    update_full(fifo);
    return Push::Queued;
}

uint32_t InputFifos::pop(uint32_t fifo) {
    Queue& q = queues_.at(fifo);
    if (q.empty()) return 0;
    const uint32_t w = q.ring[q.head].word;
    q.head = q.index(1);
    --q.size;
    update_full(fifo);
    return w;
}

void InputFifos::clear(uint32_t fifo) {
    Queue& q = queues_.at(fifo);
    q.head = q.size = 0;
    update_full(fifo);
}

uint32_t InputFifos::arrived_by(uint32_t fifo, uint64_t time) const {
    const Queue& q = queues_.at(fifo);
    // Asked on every scan position; usually every queued word has arrived.
    if (q.empty() || q.at(q.size - 1).arrival <= time) return q.size;
    uint32_t n = 0;
    while (q.at(n).arrival <= time) ++n;  // the last one has not: stops inside the queue
    return n;
}

std::optional<uint64_t> InputFifos::next_arrival_after(uint64_t time) const {
    std::optional<uint64_t> next;
    for (const Queue& q : queues_)
        for (uint32_t n = 0; n < q.size; ++n)
            if (const uint64_t arrival = q.at(n).arrival; arrival > time) {
                if (!next || arrival < *next) next = arrival;
                break;  // arrivals only grow along a queue
            }
    return next;
}

uint32_t InputFifos::starved_by_full(uint32_t enabled) const {
    uint32_t empty = 0;
    bool any_full = false;
    for (std::size_t i = 0; i < queues_.size(); ++i) {
        if (!(enabled >> i & 1)) continue;
        if (queues_[i].empty()) empty |= 1u << i;
        if (queues_[i].size >= depth_) any_full = true;
    }
    return any_full ? empty : 0;
}

std::vector<uint32_t> InputFifos::contents(uint32_t fifo) const {
    std::vector<uint32_t> words;
    const Queue& q = queues_.at(fifo);
    for (uint32_t n = 0; n < q.size; ++n) words.push_back(q.at(n).word);
    return words;
}

}  // namespace ai8x
