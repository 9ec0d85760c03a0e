// The accelerator's always-on block (cnn.aon): AON_CTL, which keeps its value
// while the quadrants' power domains come and go. Its PWR_DOWN field (bit q for
// quadrant q) powers quadrant q's kernel memories down; the block hands each
// newly set bit to that quadrant's PowerDomain, which drops the weights.
// READY_SEL is stored as written (no behaviour reads it).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <systemc>

#include "model/accel_state.h"
#include "model/power/power_domain.h"
#include "model/registers/register_fields.h"
#include "tlm/register_bank.h"

namespace ai8x {

class AlwaysOnControl : public sc_core::sc_module {
public:
    // `domains`: the quadrants' power domains, quadrant q at index q. The
    // register window is called as the module is ("cnn.aon").
    AlwaysOnControl(sc_core::sc_module_name name, AcceleratorState& state, std::vector<PowerDomain*> domains);

    const char* kind() const override { return "ai8x_always_on"; }

    RegisterBank& register_bank() { return *bank_; }

private:
    // AON_CTL.PWR_DOWN: a bit that was clear and is now set loses that quadrant's weights.
    void after_ctl_write(uint32_t old_value);

    AcceleratorState& state_;
    const RegisterFields& fields_;  // bound once to the device description
    std::vector<PowerDomain*> domains_;
    std::unique_ptr<RegisterBank> bank_;
};

}  // namespace ai8x
