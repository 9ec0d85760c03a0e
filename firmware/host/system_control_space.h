// The Cortex-M4's System Control Space, the part firmware uses and Unicorn does
// not model: the NVIC's enable and pending bits, and the SCB's CPUID, VTOR,
// AIRCR (PRIGROUP behind its key), SCR (sleep) and CCR. Its registers come from
// the device description (configs: peripherals SCS, `bus: core`); the core maps
// the block on its private peripheral bus and serves it through read()/write().
#pragma once

#include <cstdint>
#include <optional>

#include "registers/soc.h"

namespace ai8x {

class SystemControlSpace : public Peripheral {
public:
    static constexpr unsigned kMaxIrqs = 256;  // eight 32-bit NVIC banks

    // `vtor_reset`: where the vector table is at reset (the start of flash).
    SystemControlSpace(sc_core::sc_module_name name, const DeviceConfig& cfg, uint32_t vtor_reset);

    // A word access at `offset` from base(); false = no register there.
    bool read(uint32_t offset, uint32_t& value);
    bool write(uint32_t offset, uint32_t value);

    uint32_t vtor() const { return VTOR; }
    // SCR.SLEEPDEEP: the next WFI asks for deep sleep rather than sleep.
    bool sleep_deep() const { return SCR.is_set(SCR.SLEEPDEEP); }
    bool enabled(unsigned irq) const { return bit(ISER, irq); }
    bool pending(unsigned irq) const { return bit(ISPR, irq); }
    void set_pending(unsigned irq, bool on);

    // Lowest-numbered interrupt that is both pending and enabled (all
    // priorities are equal, so the lowest number wins as on the NVIC).
    std::optional<unsigned> next_interrupt() const;

private:
    static bool bit(const PeripheralRegister& bank, unsigned irq) {
        return irq < bank.count() * 32 && (bank.value(irq / 32) >> (irq % 32) & 1u);
    }
    // The set and clear banks are two views of one state: the enables (ISER) and pendings (ISPR).
    void write_set_enable(unsigned word, uint32_t value) { ISER.set(ISER.value(word) | value, word); }
    void write_clear_enable(unsigned word, uint32_t value) { ISER.set(ISER.value(word) & ~value, word); }
    uint32_t read_enables(unsigned word) { return ISER.value(word); }
    void write_set_pending(unsigned word, uint32_t value) { ISPR.set(ISPR.value(word) | value, word); }
    void write_clear_pending(unsigned word, uint32_t value) { ISPR.set(ISPR.value(word) & ~value, word); }
    uint32_t read_pendings(unsigned word) { return ISPR.value(word); }
    void write_vtor(uint32_t value);
    void write_scr(uint32_t value);

    regs::scs::ISER ISER{*this};
    regs::scs::ICER ICER{*this};
    regs::scs::ISPR ISPR{*this};
    regs::scs::ICPR ICPR{*this};
    regs::scs::VTOR VTOR{*this};
    regs::scs::SCR SCR{*this};
};

}  // namespace ai8x
