#include "model/engine/host_memory.h"

#include <cstdlib>
#include <cstring>
#include <mutex>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace ai8x {

namespace {

// Sanitizers replace malloc: mallopt() then changes nothing.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitizedAllocator = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
constexpr bool kSanitizedAllocator = true;
#else
constexpr bool kSanitizedAllocator = false;
#endif
#else
constexpr bool kSanitizedAllocator = false;
#endif

// Host-side bound, not a chip property: blocks up to this size come from the
// heap (reused after a free) instead of a mapping of their own (fresh pages
// every time), and free memory at the heap's top is kept up to it. 32 MiB is
// the largest mapping threshold glibc accepts on 64-bit hosts (mallopt fails
// above it).
constexpr int kKeptBytes = 32 << 20;

bool keep_and_touch(std::size_t bytes) {
#if defined(__GLIBC__)
    if (kSanitizedAllocator) return false;
    if (!mallopt(M_MMAP_THRESHOLD, kKeptBytes) || !mallopt(M_TRIM_THRESHOLD, kKeptBytes)) return false;
    // Touched and freed: the pages stay with the heap for the layers' buffers.
    if (void* block = std::malloc(bytes)) {
        // Not zeros: malloc and a zero fill may become calloc(), which
        // leaves fresh pages untouched. The stores must happen: without the
        // barrier the compiler may drop a block that is freed unread.
        std::memset(block, 0xa5, bytes);
        asm volatile("" : : "r"(block) : "memory");
        std::free(block);
    }
    return true;
#else
    (void)bytes;
    return false;
#endif
}

}  // namespace

bool prepare_engine_memory(std::size_t bytes) {
    static std::once_flag once;
    static bool prepared = false;
    std::call_once(once, [&] { prepared = keep_and_touch(bytes); });
    return prepared;
}

}  // namespace ai8x
