// Register tables of one accelerator quadrant (the datasheet's CNNx16_n block):
// the global control registers and the per-layer register kinds, as declarative
// definitions whose storage is the quadrant's QuadrantRegisters.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/accel_state.h"
#include "tlm/register_bank.h"

namespace ai8x {

// Per-layer register kinds (index = LREG slot; slot 19 of layer 0 is REG_IFRM).
enum LayerRegisterKind : unsigned {
    LREG_RCNT = 0, LREG_CCNT, LREG_ONED, LREG_PRCNT, LREG_PCCNT, LREG_STRIDE, LREG_WPTR_BASE,
    LREG_WPTR_TOFFS, LREG_WPTR_MOFFS, LREG_WPTR_CHOFFS, LREG_RPTR_BASE, LREG_LCTL, LREG_MCNT,
    LREG_TPTR, LREG_ENA, LREG_POST, LREG_STREAM1, LREG_STREAM2, LREG_FMAX, LREG_IFRM_SLOT, LREG_LCTL2,
};

// Byte offsets inside the quadrant block of the registers that are not per layer.
enum QuadrantRegisterOffset : uint64_t {
    REG_CTL_OFFSET = 0x0,
    REG_SRAM_OFFSET = 0x4,
    REG_LCNT_MAX_OFFSET = 0x8,
    REG_SRAM_TEST_OFFSET = 0xc,
};

// Bits of REG_CTL the sequencer acts on.
namespace ctl {
constexpr uint32_t kCnnEnable = 1u << 0;      // CNN_EN: run (slaves wait for the master)
constexpr uint32_t kMasterShift = 9;          // EXT_SYNC[1:0]: master quadrant number
constexpr uint32_t kMasterMask = 3u << 9;
constexpr uint32_t kCnnIrq = 1u << 12;        // CNN_IRQ: inference complete, interrupt pending
constexpr uint32_t kMexpress = 1u << 20;      // MEXPRESS: packed kernel loading
}  // namespace ctl

// Table entry for one per-layer register kind.
struct LayerRegisterInfo {
    unsigned kind;
    std::string name;     // e.g. "LREG_WPTR_BASE"
    std::string meaning;
    std::vector<FieldDef> fields;
};

// All per-layer kinds, in slot order, without the IFRM slot.
const std::vector<LayerRegisterInfo>& layer_register_table();

// Name of a per-layer kind ("LREG_RCNT"), or "LREG_<n>" for a slot without one.
std::string layer_register_name(unsigned kind);

// Adds every register of quadrant `q` to `bank` (offsets relative to the quadrant
// block), with storage in `regs`.
void add_quadrant_registers(RegisterBank& bank, QuadrantRegisters& regs, const DeviceConfig& cfg);

}  // namespace ai8x
