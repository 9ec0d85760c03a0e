// Recognises a Thumb-2 status-polling loop that may be fast-forwarded: a
// translated block that loads one word, tests it and branches back to its own
// start, such as the generated FIFO wait
//     ldr r3, [r2, #4]; lsls r3, r3, #31; bmi <start>
// Such a block is idempotent: every register it reads is either never written
// inside the block or was written earlier in the same pass, so while the
// loaded value stays the same each pass leaves the registers exactly as the
// previous one did. Passes can then be counted instead of executed
// (firmware/host/poll_fast_forward.h).
#pragma once

#include <cstdint>
#include <vector>

namespace ai8x {

// `code`: the block's halfwords, starting at `address`. True when the block
// consists only of the instructions listed in thumb_spin_loop.cpp, makes
// exactly one load, ends with a conditional branch on N or Z back to
// `address`, and is idempotent as described above.
bool thumb_idempotent_poll_loop(const std::vector<uint16_t>& code, uint32_t address);

}  // namespace ai8x
