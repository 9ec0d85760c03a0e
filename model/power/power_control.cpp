#include "model/power/power_control.h"

#include <spdlog/spdlog.h>

namespace ai8x {

PowerControl::PowerControl(sc_core::sc_module_name name, AcceleratorState& state, std::vector<PowerDomain*> domains)
    : sc_module(name),
      power_enable("power_enable", [this](uint32_t m) { set_power_enable(m); }),
      memory_enable("memory_enable", [this](uint32_t m) { set_memory_enable(m); }),
      isolation("isolation", [this](uint32_t m) { set_isolation(m); }),
      domain_reset("domain_reset", [this](uint32_t m) { set_domain_reset(m); }),
      cnn_clock_running("cnn_clock_running", [this](bool running) { set_peripheral_clock(running); }),
      state_(state),
      fields_(register_fields(state.cfg)),
      domains_(std::move(domains)) {
    for (uint32_t q = 0; q < domains_.size(); ++q) {
        domains_[q]->on_registers_reset = [this, q] {
            if (resets_in_write_)
                resets_in_write_->push_back(q);
            else if (on_registers_reset)
                on_registers_reset(q);
        };
        domains_[q]->before_memory_loss = [this] {
            if (before_memory_loss) before_memory_loss();
        };
    }
}

void PowerControl::assume_soc_reset() {
    for (PowerDomain* d : domains_) d->assume_soc_reset();
    clock_ = false;
}

void PowerControl::distribute(uint32_t mask, void (PowerDomain::*set)(bool)) {
    // Every domain takes its bit before anyone hears of a reset: a listener that
    // looks at all quadrants (the input FIFOs reset with the last one) sees the
    // whole GCFR write, as one write of the register is.
    std::vector<uint32_t> reset;
    resets_in_write_ = &reset;
    for (uint32_t q = 0; q < domains_.size(); ++q) (domains_[q]->*set)((mask >> q & 1) != 0);
    resets_in_write_ = nullptr;
    if (on_registers_reset)
        for (uint32_t q : reset) on_registers_reset(q);
}

void PowerControl::set_power_enable(uint32_t mask) { distribute(mask, &PowerDomain::set_powered); }
void PowerControl::set_memory_enable(uint32_t mask) { distribute(mask, &PowerDomain::set_memory_supplied); }
void PowerControl::set_isolation(uint32_t mask) { distribute(mask, &PowerDomain::set_isolated); }
void PowerControl::set_domain_reset(uint32_t mask) { distribute(mask, &PowerDomain::set_held_in_reset); }

void PowerControl::set_peripheral_clock(bool running) {
    if (running == clock_) return;
    clock_ = running;
    spdlog::debug("{}: CNN peripheral clock {}", name(), running ? "running" : "gated");
    if (on_clock_change) on_clock_change();
}

bool PowerControl::admit(const AccessScope& scope, tlm::tlm_generic_payload& trans) {
    return scope.quadrant < 0 || domains_.at(uint32_t(scope.quadrant))->admit(scope.block, trans);
}

std::string PowerControl::missing_clock(uint32_t running) const {
    std::string why;
    auto add = [&why](const std::string& s) { why += (why.empty() ? "" : "; ") + s; };
    if (!clock_) add("the CNN peripheral clock is gated (GCR PCLKDIS0.CNN)");
    for (uint32_t q = 0; q < domains_.size(); ++q)
        if ((running >> q & 1) && !fields_.REG_CTL.CLK_EN.is_set(state_.quadrant[q].ctl))
            add(state_.names.quadrant[q] + " clock is off (REG_CTL.CLK_EN)");
    return why;
}

}  // namespace ai8x
