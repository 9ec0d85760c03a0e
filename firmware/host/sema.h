// Semaphore block (soc.sema): eight test-and-set semaphores and the
// inter-core interrupts (configs peripherals SEMA; docs/riscv.md). IRQ0 with
// EN and CM4_IRQ set raises its interrupt output, the Cortex-M4's RISCV_IRQn.
#pragma once

#include "registers/soc.h"

namespace ai8x {

class Sema : public Peripheral {
public:
    Sema(sc_core::sc_module_name name, const DeviceConfig& cfg);

private:
    uint32_t read_semaphore(unsigned i);
    void write_semaphore(unsigned i, uint32_t value);
    void write_irq0(uint32_t value);
    void mark_taken(unsigned i, bool taken);

    regs::sema::SEMA SEMA{*this};
    regs::sema::IRQ0 IRQ0{*this};
    regs::sema::STATUS STATUS{*this};
};

}  // namespace ai8x
