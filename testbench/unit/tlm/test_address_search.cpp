// The remembered-block address search (tlm/address_search.h) gives the answer
// of a plain search for every address, whatever the previous call left in its
// hint: the bus and the accelerator decode every access through it.
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <vector>

#include "tlm/address_search.h"

namespace {

struct Span {
    uint64_t base;
};

// The last block with base <= address, by walking the whole list.
std::size_t walk(const std::vector<Span>& blocks, uint64_t address) {
    std::size_t found = blocks.size();
    for (std::size_t i = 0; i < blocks.size(); ++i)
        if (blocks[i].base <= address) found = i;
    return found;
}

}  // namespace

TEST_CASE("address search: the hint never changes the answer", "[bus][decode]") {
    const std::vector<Span> blocks = {{0x100}, {0x200}, {0x280}, {0x1000}, {0x50000000}};
    std::mt19937_64 rng(7);
    std::uniform_int_distribution<uint64_t> near(0, 0x1100), far(0, 0x60000000);
    std::size_t hint = 0, misses = 0;
    for (int n = 0; n < 20000; ++n) {
        const uint64_t address = (n % 3 == 0) ? far(rng) : near(rng);
        const std::size_t expected = walk(blocks, address);
        const std::size_t got = ai8x::block_at_or_below(blocks, address, hint);
        if (got != expected) ++misses;
        // Also from a stale hint past the end, as after the list shrank.
        std::size_t stale = blocks.size() + 3;
        if (ai8x::block_at_or_below(blocks, address, stale) != expected) ++misses;
    }
    CHECK(misses == 0);
}

TEST_CASE("address search: below the first block and on block edges", "[bus][decode]") {
    const std::vector<Span> blocks = {{0x100}, {0x200}};
    std::size_t hint = 1;
    CHECK(ai8x::block_at_or_below(blocks, 0xff, hint) == 2);  // none: every base lies above
    CHECK(ai8x::block_at_or_below(blocks, 0x100, hint) == 0);
    CHECK(hint == 0);
    CHECK(ai8x::block_at_or_below(blocks, 0x1ff, hint) == 0);
    CHECK(ai8x::block_at_or_below(blocks, 0x200, hint) == 1);
    CHECK(ai8x::block_at_or_below(blocks, 0xffffffff, hint) == 1);
    const std::vector<Span> none;
    CHECK(ai8x::block_at_or_below(none, 0x100, hint) == 0);
}
