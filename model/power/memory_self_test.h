// REG_SRAM_TEST: the built-in self test of a quadrant's memories, as far as the
// generated firmware drives it. With --zero-sram the generator starts the test
// of each memory kind in turn (BIST_*_EX), waits for the kind's done bit
// together with the "finished" bit, returns on the kind's fail bit, and writes
// 0 to end the test; its README calls the option "Zero memories".
//
// Model: a start bit that is set runs the test at once (no time passes; the
// test always passes): the memories of that kind in the quadrant are left
// holding zeros, known to the misprogramming checks, and the kind's done bit
// and the finished bit read 1, its fail bit 0. Clearing the start bit clears
// the kind's status. docs/power-and-reset.md has the sources.
#pragma once

#include <cstdint>
#include <string>

#include "model/accel_state.h"

namespace ai8x {

// After a bus write of quadrant q's REG_SRAM_TEST (old: the value before it):
// runs the tests whose start bit is set and rewrites the status bits.
// Returns a description of the tests run ("data, kernel"), empty if none.
std::string run_memory_self_test(AcceleratorState& state, uint32_t q, uint32_t old_value);

}  // namespace ai8x
