// Cycle cost of Thumb-2 instructions on the Cortex-M4, by instruction class
// (ARM Cortex-M4 Technical Reference Manual, "Instruction set summary" and its
// notes on load/store pipelining). A pure function of the encoding, so the CPU
// can price a translated block once, when it first sees it, and a test can
// check every class without running firmware.
#pragma once

#include <cstdint>

#include "tlm/device_config.h"

namespace ai8x {

struct ThumbCost {
    uint32_t cycles = 0;         // issue cycles of this instruction (memory wait states come on top)
    bool memory_access = false;  // a single or multiple load/store: the next load may pipeline behind it
    bool branch = false;         // may change the flow (a taken one costs cpu.timing.branch_refill_cycles more)
};

// Price of the instruction whose first halfword is `hw1` (and second `hw2` when
// it is a 32-bit one) under `t`; `after_access`: the instruction just before it
// in the same block was a load or store.
ThumbCost thumb_instruction_cost(uint16_t hw1, uint16_t hw2, bool after_access, const CpuTiming& t);

}  // namespace ai8x
