#include "model/power/always_on.h"

#include "model/registers/fifo_registers.h"

namespace ai8x {

AlwaysOnControl::AlwaysOnControl(sc_core::sc_module_name name, AcceleratorState& state,
                                 std::vector<PowerDomain*> domains)
    : sc_module(name),
      state_(state),
      fields_(register_fields(state.cfg)),
      domains_(std::move(domains)),
      bank_(std::make_unique<RegisterBank>(this->name(), state.cfg.aon_regs.base)) {
    add_aon_registers(*bank_, state_);
    bank_->find("AON_CTL")->on_write = [this](Register&, uint32_t old) { after_ctl_write(old); };
}

void AlwaysOnControl::after_ctl_write(uint32_t old_value) {
    const RegField down = fields_.AON_CTL.PWR_DOWN;
    for (uint32_t q = 0; q < domains_.size(); ++q)
        if (down.bit(state_.aon_ctl, q) && !down.bit(old_value, q)) domains_[q]->power_down_kernels();
}

}  // namespace ai8x
