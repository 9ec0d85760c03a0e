// The storage of one memory instance: its words, which of them were ever
// written since reset (for the misprogramming warnings and the memory
// occupancy report) and its activity counters.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "model/hierarchy/activity.h"

namespace ai8x {

template <typename Word>
struct MemoryArray {
    std::vector<Word> words;
    std::vector<uint8_t> written;  // 1 = written since reset
    MemoryActivity activity;

    MemoryArray(uint32_t size, uint32_t layers) : words(size, Word{}), written(size, 0) { activity.size_for(layers); }

    // Back to the reset contents, in place: ports and views keep pointers into it.
    void clear() {
        std::fill(words.begin(), words.end(), Word{});
        std::fill(written.begin(), written.end(), uint8_t{0});
        activity.clear_layers();
        activity.bus = AccessCounts{};
    }
};

}  // namespace ai8x
