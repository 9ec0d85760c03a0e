// Register tables of the input-FIFO block and the always-on (AON) control block.
#pragma once

#include <cstdint>

#include "model/accel_state.h"
#include "tlm/register_bank.h"

namespace ai8x {

enum FifoRegisterOffset : uint64_t {
    FIFO_CTL_OFFSET = 0x0,
    FIFO_STAT_OFFSET = 0x4,
    FIFO_DATA_OFFSET = 0x8,  // FIFO i data register at FIFO_DATA_OFFSET + 4 * i
};
enum AonRegisterOffset : uint64_t { AON_CTL_OFFSET = 0x0 };

// FIFO_CTL, FIFO_STAT and one write-only data register per FIFO. The data
// registers store the last word written in `last_written[i]`; the accelerator
// attaches the push behaviour to them.
void add_fifo_registers(RegisterBank& bank, AcceleratorState& state, std::vector<uint32_t>& last_written);

void add_aon_registers(RegisterBank& bank, AcceleratorState& state);

}  // namespace ai8x
