// The register fields the power, reset and memory-test model reads or writes,
// by memory kind (the generated fields are named per bit: REG_SRAM.LSDRAM ..
// LSBRAM, REG_SRAM_TEST.BIST_DATA_EX .. BIST_BIAS_EX). No bit position here.
#pragma once

#include <cstdint>

#include "model/registers/register_fields.h"

namespace ai8x::power_fields {

// The memory kinds of a quadrant, in the order of their REG_SRAM light-sleep
// bits and REG_SRAM_TEST start/status bits.
enum class MemoryKind : unsigned { Data = 0, Kernel = 1, Tram = 2, Bias = 3 };
constexpr unsigned kMemoryKinds = 4;

// REG_SRAM.LSDRAM/LSMRAM/LSTRAM/LSBRAM: one memory kind is in light sleep.
inline RegField light_sleep(const RegisterFields& f, MemoryKind k) {
    switch (k) {
        case MemoryKind::Data: return f.REG_SRAM.LSDRAM;
        case MemoryKind::Kernel: return f.REG_SRAM.LSMRAM;
        case MemoryKind::Tram: return f.REG_SRAM.LSTRAM;
        case MemoryKind::Bias: return f.REG_SRAM.LSBRAM;
    }
    return RegField{};
}

// REG_SRAM_TEST.BIST_DATA_EX/BIST_MASK_EX/BIST_TRAM_EX/BIST_BIAS_EX: start the test of one memory kind.
inline RegField bist_start(const RegisterFields& f, MemoryKind k) {
    switch (k) {
        case MemoryKind::Data: return f.REG_SRAM_TEST.BIST_DATA_EX;
        case MemoryKind::Kernel: return f.REG_SRAM_TEST.BIST_MASK_EX;
        case MemoryKind::Tram: return f.REG_SRAM_TEST.BIST_TRAM_EX;
        case MemoryKind::Bias: return f.REG_SRAM_TEST.BIST_BIAS_EX;
    }
    return RegField{};
}

}  // namespace ai8x::power_fields
