// Block pricing and the books a core keeps of it (firmware/host/block_pricer.h,
// block_books.h), on a made-up instruction set whose prices are known: a
// halfword from 0xE800 up starts a 32-bit instruction, 0x1111 is a load that
// costs 2 cycles, or 1 right behind another access, everything else 1.
#include <catch2/catch.hpp>

#include <vector>

#include "firmware/host/block_books.h"
#include "firmware/host/block_pricer.h"

using namespace ai8x;

namespace {

constexpr uint16_t kLoad = 0x1111, kAlu = 0x2222, kWide = 0xF000;
constexpr uint32_t kBase = 0x1000;

struct Code {
    std::vector<uint16_t> halfwords;
    int reads = 0;  // reads of code by the pricer
    BlockPricer pricer() {
        BlockPricer::InstructionSet isa{[](uint16_t hw) { return hw >= 0xE800 ? 4u : 2u; },
                                        [](uint16_t hw1, uint16_t, bool& after_access) {
                                            const bool load = hw1 == kLoad;
                                            const uint32_t cycles = load ? (after_access ? 1 : 2) : 1;
                                            after_access = load;
                                            return cycles;
                                        },
                                        3};
        return BlockPricer(isa, [this](uint32_t address, void* out, uint32_t bytes) {
            ++reads;
            const uint32_t at = (address - kBase) / 2;
            if (address < kBase || bytes != 2 || at >= halfwords.size()) return false;
            *static_cast<uint16_t*>(out) = halfwords[at];
            return true;
        });
    }
};

}  // namespace

TEST_CASE("a block costs its instructions' prices, cold and right behind an access", "[cpu][pricing]") {
    Code code{{kLoad, kAlu, kWide, 0x0000, kLoad}};
    BlockPricer pricer = code.pricer();
    const BlockCost cost = pricer.cost(kBase, 10);
    CHECK(cost.instructions == 4);
    CHECK(cost.cycles[0] == 2 + 1 + 1 + 2);  // entered cold: the first load pays 2
    CHECK(cost.cycles[1] == 1 + 1 + 1 + 2);  // right behind an access: it pipelines
    CHECK(cost.ends_with_access);
    CHECK(pricer.cost(kBase, 4).instructions == 2);  // the same start, retranslated shorter
    CHECK_FALSE(pricer.cost(kBase, 4).ends_with_access);
    CHECK(pricer.through(kBase, kBase + 4) == 8);  // through the 32-bit instruction
}

TEST_CASE("each block is priced once, from the code in memory", "[cpu][pricing]") {
    Code code{{kAlu, kLoad, kAlu}};
    BlockPricer pricer = code.pricer();
    const BlockCost first = pricer.cost(kBase, 6);
    const int reads = code.reads;
    CHECK(reads == 3);
    for (int i = 0; i < 200; ++i) pricer.cost(kBase + 2 * uint32_t(i % 3), 2);  // others, evicting nothing
    const int others = code.reads;
    const BlockCost again = pricer.cost(kBase, 6);
    CHECK(code.reads == others);  // neither recent nor known blocks are read again
    CHECK(again.instructions == first.instructions);
    CHECK(again.cycles[0] == first.cycles[0]);
}

TEST_CASE("code that cannot be read counts as 16-bit instructions at the base price", "[cpu][pricing]") {
    Code code{{kLoad}};
    BlockPricer pricer = code.pricer();
    const BlockCost cost = pricer.cost(kBase, 6);  // two halfwords past the end
    CHECK(cost.instructions == 3);
    CHECK(cost.cycles[0] == 2 + 3 + 3);
    CHECK_FALSE(cost.ends_with_access);
}

TEST_CASE("the books: a taken branch refills, falling through keeps an access's pipelining", "[cpu][pricing]") {
    BlockCost cost;
    cost.instructions = 3;
    cost.cycles[0] = 5;
    cost.cycles[1] = 4;
    cost.ends_with_access = true;
    BlockBooks books;
    books.enter(kBase, 2);  // not where the last block ended: a branch
    books.count(kBase, 6, cost);
    CHECK(books.instret == 3);
    CHECK(books.cycles == 2 + 5);
    CHECK(books.block_base == 0);
    CHECK(books.block_cycles_base == 2);
    CHECK(books.fallthrough == kBase + 6);
    books.enter(kBase + 6, 2);  // falls through, behind the load
    CHECK(books.block_after_access);
    books.count(kBase + 6, 6, cost);
    CHECK(books.cycles == 2 + 5 + 4);
    CHECK(books.block_start == kBase + 6);
    CHECK(books.block_end == kBase + 12);
    books.enter(kBase, 2);  // the branch back
    CHECK_FALSE(books.block_after_access);
    CHECK(books.cycles == 2 + 5 + 4 + 2);
}
