// The layer engine's host memory (model/engine/host_memory.h): after
// prepare_engine_memory(), buffers of the sizes a layer allocates and frees
// come from pages touched already, so touching them costs no page fault
// (without it each 256 KiB buffer, above glibc's default mapping threshold,
// is a fresh mapping: 64 faults at every touch). Counted with the thread's
// minor faults.
#include <catch2/catch.hpp>

#include <sys/resource.h>

#include <cstdlib>
#include <cstring>

#include "model/engine/host_memory.h"

using namespace ai8x;

namespace {

long minor_faults() {
    rusage usage{};
    getrusage(RUSAGE_THREAD, &usage);
    return usage.ru_minflt;
}

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

}  // namespace

TEST_CASE("layer buffers reuse host memory touched before the inference", "[engine][host_memory]") {
    constexpr std::size_t kPrepared = std::size_t{1} << 20, kBuffer = std::size_t{256} << 10;
    const bool prepared = prepare_engine_memory(kPrepared);
    if (kSanitized) {
        // The sanitizer's allocator ignores the C library's settings: nothing to prepare.
        CHECK_FALSE(prepared);
        return;
    }
    REQUIRE(prepared);
    const long before = minor_faults();
    for (int layer = 0; layer < 8; ++layer) {  // each "layer" allocates, touches and frees its buffers
        void* image = std::malloc(kBuffer);
        void* weights = std::malloc(kBuffer / 2);
        void* results = std::malloc(kBuffer);
        REQUIRE(image);
        REQUIRE(weights);
        REQUIRE(results);
        std::memset(image, layer + 1, kBuffer);
        std::memset(weights, layer + 1, kBuffer / 2);
        std::memset(results, layer + 1, kBuffer);
        asm volatile("" : : "r"(image), "r"(weights), "r"(results) : "memory");
        std::free(results);
        std::free(weights);
        std::free(image);
    }
    // Without the preparation: 160 faults in the first layer and, the
    // buffers being mappings of their own, as many in every later one.
    CHECK(minor_faults() - before <= 4);
}
