// Function control registers (soc.fcr): stored as written; the board reads
// the RISC-V core's boot address from URVBOOTADDR when GCR starts the core's
// clock (configs peripherals FCR; docs/riscv.md).
#pragma once

#include "registers/soc.h"

namespace ai8x {

class Fcr : public Peripheral {
public:
    Fcr(sc_core::sc_module_name name, const DeviceConfig& cfg) : Peripheral(name, cfg, regs::fcr::kName) {}

    uint32_t boot_address() const { return URVBOOTADDR.value(); }

private:
    regs::fcr::URVBOOTADDR URVBOOTADDR{*this};
};

}  // namespace ai8x
