// Register banks of one accelerator quadrant (the datasheet's CNNx16_n block):
// the global control registers and the per-layer register kinds, built from the
// device description's register_map with storage in the quadrant's
// QuadrantRegisters.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/accel_state.h"
#include "tlm/register_bank.h"

namespace ai8x {

// Per-layer register kinds: the slot index the model stores each kind under
// (QuadrantRegisters::lreg[kind]). register_fields() checks that the device
// description puts every kind in this slot; slot 19 of layer 0 is REG_IFRM.
enum LayerRegisterKind : unsigned {
    LREG_RCNT = 0,
    LREG_CCNT,
    LREG_ONED,
    LREG_PRCNT,
    LREG_PCCNT,
    LREG_STRIDE,
    LREG_WPTR_BASE,
    LREG_WPTR_TOFFS,
    LREG_WPTR_MOFFS,
    LREG_WPTR_CHOFFS,
    LREG_RPTR_BASE,
    LREG_LCTL,
    LREG_MCNT,
    LREG_TPTR,
    LREG_ENA,
    LREG_POST,
    LREG_STREAM1,
    LREG_STREAM2,
    LREG_FMAX,
    LREG_IFRM_SLOT,
    LREG_LCTL2,
};

// Name of per-layer slot `kind` in `cfg`'s description ("LREG_RCNT"), or
// "LREG_<n>" for a slot without one.
std::string layer_register_name(const DeviceConfig& cfg, unsigned kind);

// Adds every register of one quadrant to `bank` (offsets relative to the quadrant
// block), with storage in `regs`. Throws ConfigError for a described global
// register the model has no storage for.
void add_quadrant_registers(RegisterBank& bank, QuadrantRegisters& regs, const DeviceConfig& cfg);

}  // namespace ai8x
