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

// Per-layer register kinds: the index the model stores each kind under
// (QuadrantRegisters::lreg[kind]), found by the kind's name in the device
// description (where it sits on the bus is the description's business). The
// first 21 match the MAX78000's slots (19 is its REG_IFRM word); the kinds
// after LREG_LCTL2 exist on the MAX78002 only.
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
    LREG_NXTLYR,  // next layer / stop (layer links)
    LREG_MCNT1,   // last kernel word (the MAX78000's LREG_MCNT split in two)
    LREG_MCNT2,   // first kernel word
    LREG_OCHAN,   // output channel count
    kLayerRegisterKinds
};

// The model's name of kind `kind` ("LREG_RCNT"), "LREG_<n>" for an index
// no kind has.
const char* layer_register_kind_name(unsigned kind);

// Name of per-layer kind `kind` ("LREG_RCNT"), or "LREG_<n>" for none.
std::string layer_register_name(const DeviceConfig& cfg, unsigned kind);

// Adds every register of one quadrant to `bank` (offsets relative to the quadrant
// block), with storage in `regs`. Throws ConfigError for a described global
// register the model has no storage for.
void add_quadrant_registers(RegisterBank& bank, QuadrantRegisters& regs, const DeviceConfig& cfg);

}  // namespace ai8x
