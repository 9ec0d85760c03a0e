// Register banks of one accelerator quadrant (the datasheet's CNNx16_n block):
// the global control registers and the per-layer register kinds, built from the
// device description's register_map with storage in the quadrant's
// QuadrantRegisters. The per-layer kinds (LayerRegisterKind: the index the
// model stores each kind under, QuadrantRegisters::lreg[kind]) and their names
// are generated from the family's description (registers/cnn.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/accel_state.h"
#include "registers/cnn.h"
#include "tlm/register_bank.h"

namespace ai8x {

// Name of per-layer kind `kind` ("LREG_RCNT"), or "LREG_<n>" for none.
std::string layer_register_name(const DeviceConfig& cfg, unsigned kind);

// Adds every register of one quadrant to `bank` (offsets relative to the quadrant
// block), with storage in `regs`. Throws ConfigError for a described global
// register the model has no storage for.
void add_quadrant_registers(RegisterBank& bank, QuadrantRegisters& regs, const DeviceConfig& cfg);

}  // namespace ai8x
