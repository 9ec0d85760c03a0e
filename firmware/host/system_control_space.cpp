#include "firmware/host/system_control_space.h"

namespace ai8x {

SystemControlSpace::SystemControlSpace(sc_core::sc_module_name name, const DeviceConfig& cfg, uint32_t vtor_reset)
    : Peripheral(name, cfg, regs::scs::kName) {
    ISER.on_write(&SystemControlSpace::write_set_enable);
    ICER.on_write(&SystemControlSpace::write_clear_enable);
    ICER.on_read(&SystemControlSpace::read_enables);
    ISPR.on_write(&SystemControlSpace::write_set_pending);
    ICPR.on_write(&SystemControlSpace::write_clear_pending);
    ICPR.on_read(&SystemControlSpace::read_pendings);
    VTOR.on_write(&SystemControlSpace::write_vtor);
    SCR.on_write(&SystemControlSpace::write_scr);
    write_vtor(vtor_reset);
}

bool SystemControlSpace::read(uint32_t offset, uint32_t& value) {
    unsigned index = 0;
    PeripheralRegister* r = register_at(offset, index);
    if (!r) return false;
    value = r->bus_read(index, 0, 4);
    return true;
}

bool SystemControlSpace::write(uint32_t offset, uint32_t value) {
    unsigned index = 0;
    PeripheralRegister* r = register_at(offset, index);
    if (!r) return false;
    r->bus_write(index, 0, 4, value);
    return true;
}

void SystemControlSpace::set_pending(unsigned irq, bool on) {
    if (irq >= ISPR.count() * 32) return;
    const unsigned word = irq / 32;
    const uint32_t line = 1u << irq % 32;
    ISPR.set(on ? ISPR.value(word) | line : ISPR.value(word) & ~line, word);
}

void SystemControlSpace::write_vtor(uint32_t value) { VTOR.set(VTOR.TBLOFF.with(0, VTOR.TBLOFF.get(value))); }

// Only the described bits exist; the rest read 0.
void SystemControlSpace::write_scr(uint32_t value) {
    uint32_t kept = 0;
    for (const RegField f : {SCR.SLEEPONEXIT, SCR.SLEEPDEEP, SCR.SEVONPEND}) kept = f.with(kept, f.get(value));
    SCR.set(kept);
}

std::optional<unsigned> SystemControlSpace::next_interrupt() const {
    for (unsigned w = 0; w < ISER.count(); ++w) {
        const uint32_t ready = ISER.value(w) & ISPR.value(w);
        if (ready) return w * 32 + unsigned(__builtin_ctz(ready));
    }
    return std::nullopt;
}

}  // namespace ai8x
