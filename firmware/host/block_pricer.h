// What a translated block of code costs a core: its instruction count and
// the issue cycles of those instructions, priced one by one by the core's
// instruction set (the Cortex-M4's by instruction class,
// firmware/host/thumb_timing.h; the RISC-V core's at one base price). Each
// block is priced once, from the code in memory, and kept: firmware does not
// rewrite its code.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <unordered_map>

namespace ai8x {

struct BlockCost {
    uint32_t instructions = 0;
    // Issue cycles of them all, entered cold [0] or right behind a load/store
    // of the previous block [1] (falling through: the load pipelines).
    uint32_t cycles[2] = {0, 0};
    bool ends_with_access = false;  // the last instruction loads or stores
};

class BlockPricer {
public:
    struct InstructionSet {
        // Length in bytes of the instruction whose first halfword is given.
        std::function<uint32_t(uint16_t halfword)> bytes;
        // Issue cycles of the instruction of halfwords hw1, hw2 (the second
        // is meaningless for a 16-bit one); `after_access` says whether the
        // instruction before it loaded or stored, and is set for the next.
        std::function<uint32_t(uint16_t hw1, uint16_t hw2, bool& after_access)> cycles;
        uint32_t base_cycles = 1;  // the price of code that cannot be read
    };
    // Copies `bytes` of code at `address`; false when it is not mapped.
    using ReadCode = std::function<bool(uint32_t address, void* out, uint32_t bytes)>;

    BlockPricer(InstructionSet isa, ReadCode read) : isa_(std::move(isa)), read_(std::move(read)) {}

    // The block [address, address + bytes). A loop's few blocks run
    // thousands of times, so the blocks met last are looked up first.
    BlockCost cost(uint32_t address, uint32_t bytes) {
        const uint64_t key = (uint64_t(bytes) << 32) | address;
        RecentCost& recent = recent_[(address >> 1) % recent_.size()];
        if (recent.key == key) return recent.cost;
        recent = {key, known(key, address, bytes)};
        return recent.cost;
    }
    // Bytes from `block_start` through the instruction at `address`.
    uint32_t through(uint32_t block_start, uint32_t address) const;

private:
    BlockCost known(uint64_t key, uint32_t address, uint32_t bytes);
    BlockCost price(uint32_t address, uint32_t bytes) const;

    const InstructionSet isa_;
    const ReadCode read_;
    // Keyed by address and byte size: a block at one address can be
    // retranslated shorter (a debugger's stop splits it).
    std::unordered_map<uint64_t, BlockCost> costs_;
    struct RecentCost {
        uint64_t key = ~uint64_t{0};
        BlockCost cost;
    };
    std::array<RecentCost, 64> recent_;
};

}  // namespace ai8x
