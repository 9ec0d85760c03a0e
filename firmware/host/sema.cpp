#include "firmware/host/sema.h"

namespace ai8x {

Sema::Sema(sc_core::sc_module_name name, const DeviceConfig& cfg) : Peripheral(name, cfg, regs::sema::kName) {
    SEMA.on_read(&Sema::read_semaphore);
    SEMA.on_write(&Sema::write_semaphore);
    IRQ0.on_write(&Sema::write_irq0);
}

void Sema::mark_taken(unsigned i, bool taken) { STATUS.set(STATUS.TAKEN.with_bit(STATUS.value(), i, taken)); }

// A read is a test-and-set: it returns the prior state and takes the semaphore.
uint32_t Sema::read_semaphore(unsigned i) {
    const uint32_t prior = SEMA.value(i);
    SEMA.set(SEMA.TAKEN, 1, i);
    mark_taken(i, true);
    return prior;
}

// Writing 0 releases the semaphore; writing 1 takes it.
void Sema::write_semaphore(unsigned i, uint32_t value) {
    const bool taken = SEMA.TAKEN.is_set(value);
    SEMA.set(SEMA.TAKEN, taken, i);
    mark_taken(i, taken);
}

void Sema::write_irq0(uint32_t value) {
    IRQ0.set(value);
    set_irq(IRQ0.is_set(IRQ0.EN) && IRQ0.is_set(IRQ0.CM4_IRQ));
}

}  // namespace ai8x
