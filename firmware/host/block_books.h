// What a core has booked of the code it ran: instructions and issue cycles,
// counted a whole translated block at a time as the block starts, and how
// the flow entered the block now executing. The core books every block it
// executes; the poll fast-forward books every pass it skips the same way,
// and takes a pass back by restoring a copy.
#pragma once

#include <cstdint>

#include "firmware/host/block_pricer.h"

namespace ai8x {

struct BlockBooks {
    uint64_t instret = 0;  // instructions executed
    // Issue cycles of them (block prices and refills), and the part already
    // converted to local time.
    uint64_t cycles = 0;
    uint64_t cycles_accounted = 0;
    uint64_t block_base = 0;         // instret before the block now executing
    uint64_t block_cycles_base = 0;  // cycles before it (after its refill)
    uint32_t block_start = 0;        // the block now executing: its first address
    uint32_t block_end = 0;          // ... and its first address past the end
    // Where the flow goes on without a taken branch: the end of the last block
    // counted (or a resume point). Entering any other block start pays the refill.
    uint32_t fallthrough = 0;
    bool last_access = false;         // the last instruction counted loads or stores
    bool block_after_access = false;  // the block now executing was entered right behind one

    // A block is entered at `address`. Any entry other than falling through
    // from the last block is a taken branch (exception entry and return say
    // so beforehand): the pipeline refills. Falling through keeps the
    // pipeline: a load right behind the previous block's last load/store
    // pipelines as inside one block, so block boundaries (a debugger's stop
    // splits blocks) do not change the price.
    void enter(uint32_t address, uint32_t refill_cycles) {
        const bool fell_through = address == fallthrough;
        if (!fell_through) cycles += refill_cycles;
        block_after_access = fell_through && last_access;
    }
    // ... and runs [address, address + bytes), which costs `cost`.
    void count(uint32_t address, uint32_t bytes, const BlockCost& cost) {
        block_start = address;
        block_end = address + bytes;
        fallthrough = block_end;
        block_base = instret;
        block_cycles_base = cycles;
        instret += cost.instructions;
        cycles += cost.cycles[block_after_access];
        last_access = cost.ends_with_access;
    }
};

}  // namespace ai8x
