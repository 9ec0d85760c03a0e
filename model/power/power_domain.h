// The power domain of one quadrant (cnn.qQ.power): whether the SoC powers it
// (GCFR REG0), supplies its memories (REG1), isolates it from the bus (REG2) or
// holds it in reset (REG3), and what the quadrant's own REG_SRAM and REG_SRAM_TEST
// do to its memories. It resets the quadrant's registers when power goes or
// reset comes, drops memory contents that lose their supply, and decides every
// bus access to the quadrant's blocks. PowerControl (cnn.power) takes the SoC's
// masks and gives each domain its bit; docs/power-and-reset.md has the rules.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include <systemc>
#include <tlm>

#include "model/accel_state.h"
#include "model/power/access_scope.h"
#include "model/power/power_fields.h"
#include "model/registers/register_fields.h"
#include "tlm/repeated_warnings.h"

namespace ai8x {

class PowerDomain : public sc_core::sc_module {
public:
    // `state`: the accelerator's numbered view, bound before the first access.
    PowerDomain(sc_core::sc_module_name name, AcceleratorState& state, uint32_t quadrant);

    const char* kind() const override { return "ai8x_power_domain"; }

    // --- The SoC's side (this quadrant's bit of each GCFR mask).
    void set_powered(bool on);          // REG0 PWR_EN: off resets the registers, memories lose unless REG1 holds them
    void set_memory_supplied(bool on);  // REG1 RAM_EN: memories lose their contents when neither supply holds
    void set_isolated(bool on);         // REG2 ISO
    void set_held_in_reset(bool on);    // REG3 RST: the rising edge resets the registers
    // The SoC's reset state: unpowered, memories unsupplied, isolated (nothing is lost).
    void assume_soc_reset();

    // --- The quadrant's side: its registers' write handlers.
    void after_sram_write(uint32_t old_value);       // REG_SRAM.PD: every memory loses its contents
    void after_sram_test_write(uint32_t old_value);  // REG_SRAM_TEST: the memory self test
    void power_down_kernels();                       // AON_CTL.PWR_DOWN set for this quadrant

    // Decides a bus access to `block` of this quadrant. Returns true when the
    // access may go on; false when it has been answered here (status set, warning given).
    bool admit(CnnBlock block, tlm::tlm_generic_payload& trans);

    bool powered() const { return powered_; }
    bool memory_supplied() const { return memory_; }
    bool isolated() const { return isolated_; }
    bool in_reset() const { return reset_; }
    // Resets of the registers so far (soft reset or power loss).
    uint64_t register_resets() const { return register_resets_; }

    // Set by PowerControl: after the registers went back to their reset values,
    // and before memory contents are lost (the run report's snapshot).
    std::function<void()> on_registers_reset;
    std::function<void()> before_memory_loss;
    // Whether an inference runs (a self test then gets a warning); unset: never.
    std::function<bool()> inference_running;

private:
    void reset_registers(const char* why);
    void lose(power_fields::MemoryKind kind, const char* why);
    void lose_domain_memories(const char* why);
    bool sram_supplied() const { return powered_ || memory_; }
    bool memory_asleep(CnnBlock block, std::string& why) const;
    void warn_access(const std::string& why, tlm::tlm_generic_payload& trans);
    const std::string& quadrant_name() const { return state_.names.quadrant[q_]; }

    AcceleratorState& state_;
    const RegisterFields& fields_;  // bound once to the device description
    const uint32_t q_;
    bool powered_ = true, memory_ = true, isolated_ = false, reset_ = false;  // as cnn_enable() leaves it
    uint64_t register_resets_ = 0;
    RepeatedWarnings refused_;  // refused accesses, per reason
};

}  // namespace ai8x
