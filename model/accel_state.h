// Architectural state of the CNN accelerator: every memory word and every
// register value the firmware can reach, sized from the device description.
//
// This is plain storage shared by three parties that must not know about each
// other: the bus-facing register banks and memory protocols (model/accelerator*),
// the layer engine (model/engine/*) that computes what the processors compute,
// and the timing/streaming logic. Nothing here has side effects.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "tlm/device_config.h"

namespace ai8x {

// One 72-bit kernel memory word: nine 8-bit weights (or packed 1/2/4-bit weights).
using KernelWord = std::array<uint8_t, 9>;

struct QuadrantRegisters {
    uint32_t ctl = 0;        // REG_CTL      control (enable, status bits)
    uint32_t sram = 0;       // REG_SRAM     SRAM power/control
    uint32_t lcnt_max = 0;   // REG_LCNT_MAX last layer index
    uint32_t sram_test = 0;  // REG_SRAM_TEST BIST
    uint32_t ifrm = 0;       // REG_IFRM     interface frame count (streaming)
    uint32_t mlat = 0;       // REG_MLAT     data-read latency (read-ahead)
    // Per-layer registers: lreg[kind][layer], kind = LREG_RCNT .. LREG_LCTL2.
    std::vector<std::vector<uint32_t>> lreg;
};

struct AcceleratorState {
    explicit AcceleratorState(const DeviceConfig& cfg);

    const DeviceConfig& cfg;

    // Data SRAM: [global instance][word], global instance = quadrant * instances_per_quadrant + i.
    std::vector<std::vector<uint32_t>> data_sram;
    // TRAM: [global processor][word] (16-bit values).
    std::vector<std::vector<uint16_t>> tram;
    // Kernel memory: [global processor][word].
    std::vector<std::vector<KernelWord>> kernel;
    // Bias memory: [quadrant][entry] (8-bit values).
    std::vector<std::vector<uint8_t>> bias;

    // Which words have ever been written since reset (1 = written), for the
    // misprogramming warnings: data words by the CPU or a layer's output,
    // kernel words by either kernel loading protocol. Same shape as
    // data_sram / kernel.
    std::vector<std::vector<uint8_t>> data_written;
    std::vector<std::vector<uint8_t>> kernel_written;
    // Bias entries written by the CPU, for the memory occupancy in run reports.
    std::vector<std::vector<uint8_t>> bias_written;

    std::vector<QuadrantRegisters> quadrant;

    // FIFO and always-on registers.
    uint32_t fifo_ctl = 0;
    uint32_t fifo_stat = 0;
    uint32_t aon_ctl = 0;

    // Clears memories and registers to their reset contents.
    void reset();
};

}  // namespace ai8x
