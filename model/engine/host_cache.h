// Host cache help for the layer engine. On hosts whose memory is far from
// the core (the 2026-11-29 VM: about 125 ns a line from beyond its 1 MiB
// L2), a layer's operands are usually no longer in the core's cache when
// the layer starts: kernel memory was written by the firmware long before.
// A decoder that does work between the lines it reads waits for most of
// them one after the other; a loop that only loads them keeps many misses
// in flight, and the decoder then finds them in the cache. Reads only: what
// the simulation computes does not change.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ai8x {

constexpr std::size_t kHostCacheLine = 64;

// Loads one byte of every cache line of [data, data + bytes) (none when
// bytes is 0). Returns their sum so that the loads are made; the caller
// ignores it.
inline unsigned load_lines(const void* data, std::size_t bytes) {
    if (bytes == 0) return 0;
    const auto* first = static_cast<const volatile unsigned char*>(data);
    const std::uintptr_t start = reinterpret_cast<std::uintptr_t>(data);
    // The first byte, then the first byte of each further line up to the last byte.
    unsigned sum = first[0];
    for (std::size_t offset = kHostCacheLine - start % kHostCacheLine; offset < bytes; offset += kHostCacheLine)
        sum += first[offset];
    return sum;
}

}  // namespace ai8x
