// Reset, power and clock state of the accelerator's quadrants (power domains),
// and what it does to their registers, memories and bus accesses. The SoC
// drives it through the GCFR registers (REG0 power, REG1 memory enable, REG2
// isolation, REG3 reset, one bit per quadrant) and the CNN peripheral clock
// gate in GCR; the accelerator's own REG_SRAM and AON_CTL put memories to
// sleep or power them down. docs/power-and-reset.md gives the rules and their
// sources.
//
// An accelerator on its own (unit benches, trace replay) starts as the
// firmware's cnn_enable() leaves it: powered, memories enabled, not isolated,
// out of reset, clock running. A board with a CPU calls assume_soc_reset()
// so that the firmware starts from the SoC's reset state.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>

#include "model/accel_state.h"
#include "model/power/access_scope.h"
#include "model/power/power_fields.h"
#include "model/registers/register_fields.h"
#include "tlm/repeated_warnings.h"
#include "tlm/wire.h"

namespace ai8x {

class PowerControl : public sc_core::sc_module {
public:
    // --- SoC side, as the board wires it (the GCFR and GCR outputs; bit q = quadrant q).
    WireIn<uint32_t> power_enable;   // GCFR REG0.PWR_EN
    WireIn<uint32_t> memory_enable;  // GCFR REG1.RAM_EN
    WireIn<uint32_t> isolation;      // GCFR REG2.ISO
    WireIn<uint32_t> domain_reset;   // GCFR REG3.RST
    WireIn<bool> cnn_clock_running;  // GCR PCLKDIS0.CNN clear: the CNN's clock runs

    PowerControl(sc_core::sc_module_name name, AcceleratorState& state);

    const char* kind() const override { return "ai8x_power_control"; }

    // The same inputs as calls (an accelerator without a SoC; unit tests).
    void set_power_enable(uint32_t mask);   // GCFR REG0 PWR_EN
    void set_memory_enable(uint32_t mask);  // GCFR REG1 RAM_EN ("mask memory" in the generated code)
    void set_isolation(uint32_t mask);      // GCFR REG2 ISO
    void set_domain_reset(uint32_t mask);   // GCFR REG3 RST
    void set_peripheral_clock(bool running);
    // The SoC's reset state: quadrants unpowered, memories disabled, isolated,
    // peripheral clock gated. Memories keep what they hold (never written).
    void assume_soc_reset();

    // --- Accelerator side.
    void after_sram_write(uint32_t q, uint32_t old_value);  // REG_SRAM: PD loses contents
    void after_aon_ctl_write(uint32_t old_value);           // AON_CTL.PWR_DOWN: kernel memories lose contents
    // Decides a bus access to `scope`. Returns true when the access may go on;
    // false when it has been answered here (response status set, warning given).
    bool admit(const AccessScope& scope, tlm::tlm_generic_payload& trans);
    // Why the quadrants in `running` (bit q) cannot advance: empty when every
    // clock they need runs.
    std::string missing_clock(uint32_t running) const;

    bool powered(uint32_t q) const { return power_ >> q & 1; }
    bool memory_enabled(uint32_t q) const { return ram_ >> q & 1; }
    bool isolated(uint32_t q) const { return iso_ >> q & 1; }
    bool in_reset(uint32_t q) const { return reset_ >> q & 1; }
    bool peripheral_clock() const { return clock_; }
    // Counts every reset of quadrant q's registers (soft reset or power loss):
    // the sequencer compares it to tell a run whose quadrant was reset.
    uint64_t register_resets(uint32_t q) const { return register_resets_.at(q); }

    std::function<void(uint32_t q)> on_registers_reset;  // after q's registers went back to reset values
    std::function<void()> before_memory_loss;            // before contents are lost (run report snapshot)
    std::function<void()> on_clock_change;               // a clock the sequencer may wait for changed

private:
    void reset_registers(uint32_t q, const char* why);
    void lose(uint32_t q, power_fields::MemoryKind kind, const char* why);
    bool sram_supplied(uint32_t q) const { return powered(q) || memory_enabled(q); }
    bool memory_asleep(uint32_t q, CnnBlock block, std::string& why) const;
    void warn_access(uint32_t q, const std::string& why, tlm::tlm_generic_payload& trans);

    AcceleratorState& state_;
    const RegisterFields& fields_;  // bound once to the device description
    uint32_t all_;                  // one bit per quadrant
    uint32_t power_, ram_, iso_ = 0, reset_ = 0;
    bool clock_ = true;
    std::vector<uint64_t> register_resets_;
    RepeatedWarnings refused_;  // refused accesses, per quadrant and reason
};

}  // namespace ai8x
