// Whole-instance operations on the memories of one quadrant, as the power and
// memory-test logic needs them: contents lost when power is removed, contents
// zeroed by the built-in self test.
#pragma once

#include <cstdint>

#include "model/accel_state.h"
#include "model/power/power_fields.h"

namespace ai8x {

// Fill words the model writes into a memory whose contents are lost: the
// silicon holds unknown values; a recognisable pattern makes them stand out
// in dumps, and the cleared written flags make the layer engine warn.
constexpr uint32_t kLostDataWord = 0xdeadbeefu;
constexpr uint16_t kLostTramWord = 0xdeadu;
constexpr uint8_t kLostByte = 0xdeu;  // bias entries and every weight byte of a kernel word

// Every instance of `kind` in quadrant `q` loses its contents: pattern, written
// flags cleared. Activity counters are kept (they count what happened).
void lose_quadrant_memory(AcceleratorState& state, uint32_t q, power_fields::MemoryKind kind);

// Every instance of `kind` in quadrant `q` holds zeros, known (written flags set).
void zero_quadrant_memory(AcceleratorState& state, uint32_t q, power_fields::MemoryKind kind);

}  // namespace ai8x
