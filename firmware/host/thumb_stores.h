// How many memory writes a Thumb-2 (ARMv7-M) instruction makes, so that a
// write seen by a memory hook can be traced to the instruction that made it:
// Unicorn tells which translated block is running, not which instruction.
#pragma once

#include <cstdint>

namespace ai8x {

// Bytes of the instruction whose first halfword is `first` (2 or 4).
inline unsigned thumb_length(uint16_t first) { return (first >> 11) >= 0x1D ? 4 : 2; }

// Number of separate stores the instruction makes (0 for anything that does
// not write memory): 1 for STR/STRB/STRH/STREX, 2 for STRD, one per register
// for PUSH/STM. `second` is ignored for 16-bit instructions.
unsigned thumb_store_count(uint16_t first, uint16_t second);

// The base register (0-15) a store instruction addresses through, or -1 when
// `first` starts no store. PUSH and SP-relative stores give 13 (SP).
int thumb_store_base(uint16_t first);

// True for a 32-bit STR/STRB/STRH with pre-index and writeback
// (`str r3, [r0, #1]!`): compilers point its base one step before the array
// (often into the variable in front), so the base register is not the pointer.
bool thumb_store_preindexed(uint16_t first, uint16_t second);

}  // namespace ai8x
