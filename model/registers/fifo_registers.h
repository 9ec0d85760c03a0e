// Register banks of the input-FIFO block and the always-on (AON) control block,
// built from the device description's register_map.
#pragma once

#include <cstdint>
#include <vector>

#include "model/accel_state.h"
#include "tlm/register_bank.h"

namespace ai8x {

// FIFO_CTL, FIFO_STAT and one write-only data register per FIFO (FIFO_WR<i>).
// The data registers store the last word written in `last_written[i]`; the
// accelerator attaches the push behaviour to them.
void add_fifo_registers(RegisterBank& bank, AcceleratorState& state, std::vector<uint32_t>& last_written);

void add_aon_registers(RegisterBank& bank, AcceleratorState& state);

// Offset in the FIFO block of FIFO `i`'s data register.
uint64_t fifo_data_offset(const DeviceConfig& cfg, uint32_t i);

}  // namespace ai8x
