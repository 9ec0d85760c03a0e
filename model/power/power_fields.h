// The register fields the power, reset and memory-test model reads or writes,
// as small named helpers over the fields resolved from the device description
// (model/registers/register_fields.h, PowerFields): no bit position here.
#pragma once

#include <cstdint>

#include "model/registers/register_fields.h"

namespace ai8x::power_fields {

// The memory kinds of a quadrant, in the order of their REG_SRAM light-sleep
// bits and REG_SRAM_TEST start/status bits.
enum class MemoryKind : unsigned { Data = 0, Kernel = 1, Tram = 2, Bias = 3 };
constexpr unsigned kMemoryKinds = PowerFields::kMemoryKinds;

// REG_CTL.CLK_EN: the quadrant's clock runs.
inline bool ctl_clock_enabled(const PowerFields& f, uint32_t ctl) { return f.clk_en.is_set(ctl); }

// REG_SRAM.PD: the quadrant's memories are powered down.
inline bool sram_power_down(const PowerFields& f, uint32_t sram) { return f.power_down.is_set(sram); }
// REG_SRAM.DS: the quadrant's memories are in deep sleep.
inline bool sram_deep_sleep(const PowerFields& f, uint32_t sram) { return f.deep_sleep.is_set(sram); }
// REG_SRAM.LSDRAM/LSMRAM/LSTRAM/LSBRAM: one memory kind is in light sleep.
inline bool sram_light_sleep(const PowerFields& f, uint32_t sram, MemoryKind k) {
    return f.light_sleep[unsigned(k)].is_set(sram);
}

// AON_CTL.PWR_DOWN[q]: the kernel memories (MRAM) of quadrant q are powered down.
inline bool aon_kernel_power_down(const PowerFields& f, uint32_t aon_ctl, uint32_t q) {
    return f.kernel_power_down.bit(aon_ctl, q);
}

}  // namespace ai8x::power_fields
