// The ARMv7-M System Control Space registers that Unicorn does not model but
// firmware uses: NVIC enable/pending bits, the vector table offset (VTOR), the
// sleep configuration (SCR) and the priority grouping (AIRCR.PRIGROUP).
// Plain state, read and written by the CPU's MMIO hook at 0xE000E000.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

namespace ai8x {

class SystemControlSpace {
public:
    static constexpr uint32_t kBase = 0xE000E000;
    static constexpr uint32_t kSize = 0x1000;
    static constexpr unsigned kMaxIrqs = 256;

    explicit SystemControlSpace(uint32_t vtor_reset) : vtor_(vtor_reset) {}

    // Register access at `offset` from kBase; false = no such register.
    bool read(uint32_t offset, uint32_t& value) const;
    bool write(uint32_t offset, uint32_t value);

    uint32_t vtor() const { return vtor_; }
    // SCR.SLEEPDEEP: the next WFI asks for deep sleep rather than sleep.
    bool sleep_deep() const;
    bool enabled(unsigned irq) const { return bit(enabled_, irq); }
    bool pending(unsigned irq) const { return bit(pending_, irq); }
    void set_pending(unsigned irq, bool on) { set_bit(pending_, irq, on); }

    // Lowest-numbered interrupt that is both pending and enabled (all
    // priorities are equal, so the lowest number wins as on the NVIC).
    std::optional<unsigned> next_interrupt() const;

private:
    using Bits = std::array<uint32_t, kMaxIrqs / 32>;
    static bool bit(const Bits& b, unsigned irq) { return irq < kMaxIrqs && (b[irq / 32] >> (irq % 32)) & 1u; }
    static void set_bit(Bits& b, unsigned irq, bool on) {
        if (irq >= kMaxIrqs) return;
        if (on)
            b[irq / 32] |= 1u << (irq % 32);
        else
            b[irq / 32] &= ~(1u << (irq % 32));
    }

    Bits enabled_{};
    Bits pending_{};
    uint32_t vtor_;
    uint32_t scr_ = 0;
    uint32_t prigroup_ = 0;
};

}  // namespace ai8x
