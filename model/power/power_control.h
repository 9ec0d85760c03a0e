// The accelerator's power controller (cnn.power): the SoC's side of the
// quadrants' power domains and the CNN clock. It takes the GCFR masks (REG0
// power, REG1 memory enable, REG2 isolation, REG3 reset, one bit per quadrant)
// and gives each quadrant's PowerDomain (cnn.qQ.power) its bit; it follows the
// CNN peripheral clock gate in GCR. The domains hold the rules of their quadrant
// (model/power/power_domain.h); docs/power-and-reset.md gives them and their sources.
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
#include "model/power/power_domain.h"
#include "model/registers/register_fields.h"
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

    // `domains`: the quadrants' power domains, quadrant q at index q.
    PowerControl(sc_core::sc_module_name name, AcceleratorState& state, std::vector<PowerDomain*> domains);

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
    // Decides a bus access to `scope` (its quadrant's domain decides). Returns
    // true when the access may go on; false when it has been answered.
    bool admit(const AccessScope& scope, tlm::tlm_generic_payload& trans);
    // Why the quadrants in `running` (bit q) cannot advance: empty when every
    // clock they need runs.
    std::string missing_clock(uint32_t running) const;

    PowerDomain& domain(uint32_t q) { return *domains_.at(q); }
    bool powered(uint32_t q) const { return domains_.at(q)->powered(); }
    bool memory_enabled(uint32_t q) const { return domains_.at(q)->memory_supplied(); }
    bool isolated(uint32_t q) const { return domains_.at(q)->isolated(); }
    bool in_reset(uint32_t q) const { return domains_.at(q)->in_reset(); }
    bool peripheral_clock() const { return clock_; }
    // Counts every reset of quadrant q's registers (soft reset or power loss):
    // the sequencer compares it to tell a run whose quadrant was reset.
    uint64_t register_resets(uint32_t q) const { return domains_.at(q)->register_resets(); }

    std::function<void(uint32_t q)> on_registers_reset;  // after q's registers went back to reset values
    std::function<void()> before_memory_loss;            // before contents are lost (run report snapshot)
    std::function<void()> on_clock_change;               // a clock the sequencer may wait for changed

private:
    // Gives domain q bit q of `mask` through `set` (in quadrant order).
    void distribute(uint32_t mask, void (PowerDomain::*set)(bool));

    AcceleratorState& state_;
    const RegisterFields& fields_;  // bound once to the device description
    std::vector<PowerDomain*> domains_;
    std::vector<uint32_t>* resets_in_write_ = nullptr;  // while distribute() runs: the quadrants it reset
    bool clock_ = true;
};

}  // namespace ai8x
