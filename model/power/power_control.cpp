#include "model/power/power_control.h"

#include <cctype>
#include <cstring>

#include <spdlog/spdlog.h>

#include "model/power/quadrant_memories.h"

namespace ai8x {

using power_fields::MemoryKind;

namespace {

// Memories that the quadrant's power domain (GCFR REG0/REG1) holds. The kernel
// memories are not among them: weights survive cnn_disable() (README, cnn_load_bias).
constexpr MemoryKind kDomainMemories[] = {MemoryKind::Data, MemoryKind::Tram, MemoryKind::Bias};
constexpr MemoryKind kAllMemories[] = {MemoryKind::Data, MemoryKind::Kernel, MemoryKind::Tram, MemoryKind::Bias};

bool memory_kind_of(CnnBlock b, MemoryKind& k) {
    switch (b) {
        case CnnBlock::DataSram: k = MemoryKind::Data; return true;
        case CnnBlock::Tram: k = MemoryKind::Tram; return true;
        case CnnBlock::Bias: k = MemoryKind::Bias; return true;
        case CnnBlock::Kernel: k = MemoryKind::Kernel; return true;
        default: return false;
    }
}
}  // namespace

PowerControl::PowerControl(sc_core::sc_module_name name, AcceleratorState& state)
    : sc_module(name),
      power_enable("power_enable", [this](uint32_t m) { set_power_enable(m); }),
      memory_enable("memory_enable", [this](uint32_t m) { set_memory_enable(m); }),
      isolation("isolation", [this](uint32_t m) { set_isolation(m); }),
      domain_reset("domain_reset", [this](uint32_t m) { set_domain_reset(m); }),
      cnn_clock_running("cnn_clock_running", [this](bool running) { set_peripheral_clock(running); }),
      state_(state),
      fields_(register_fields(state.cfg)),
      all_((1u << state.cfg.quadrants) - 1),
      power_(all_),
      ram_(all_),
      register_resets_(state.cfg.quadrants, 0),
      refused_(this->name()) {}

void PowerControl::assume_soc_reset() {
    power_ = ram_ = reset_ = 0;
    iso_ = all_;
    clock_ = false;
}

void PowerControl::set_power_enable(uint32_t mask) {
    const uint32_t old = power_;
    power_ = mask & all_;
    bool lost = false;
    for (uint32_t q = 0; q < state_.cfg.quadrants; ++q) {
        if (!(old >> q & 1) || powered(q)) continue;
        reset_registers(q, "power removed (GCFR REG0)");
        if (!memory_enabled(q) && !lost) {
            if (before_memory_loss) before_memory_loss();
            lost = true;
        }
        if (!memory_enabled(q))
            for (MemoryKind k : kDomainMemories) lose(q, k, "power removed (GCFR REG0, REG1)");
    }
}

void PowerControl::set_memory_enable(uint32_t mask) {
    const uint32_t old = ram_;
    ram_ = mask & all_;
    bool lost = false;
    for (uint32_t q = 0; q < state_.cfg.quadrants; ++q) {
        const bool was_supplied = powered(q) || (old >> q & 1);
        if (!was_supplied || sram_supplied(q)) continue;
        if (!lost && before_memory_loss) before_memory_loss();
        lost = true;
        for (MemoryKind k : kDomainMemories) lose(q, k, "memory supply removed (GCFR REG1)");
    }
}

void PowerControl::set_isolation(uint32_t mask) {
    iso_ = mask & all_;
    spdlog::debug("{}: quadrant isolation 0x{:x}", name(), iso_);
}

void PowerControl::set_domain_reset(uint32_t mask) {
    const uint32_t old = reset_;
    reset_ = mask & all_;
    for (uint32_t q = 0; q < state_.cfg.quadrants; ++q)
        if (in_reset(q) && !(old >> q & 1)) reset_registers(q, "soft reset (GCFR REG3)");
}

void PowerControl::set_peripheral_clock(bool running) {
    if (running == clock_) return;
    clock_ = running;
    spdlog::debug("{}: CNN peripheral clock {}", name(), running ? "running" : "gated");
    if (on_clock_change) on_clock_change();
}

void PowerControl::reset_registers(uint32_t q, const char* why) {
    state_.quadrant[q].clear();
    ++register_resets_[q];
    spdlog::debug("{}: {} registers to their reset values: {}", name(), state_.names.quadrant[q], why);
    if (on_registers_reset) on_registers_reset(q);
}

void PowerControl::lose(uint32_t q, MemoryKind kind, const char* why) {
    lose_quadrant_memory(state_, q, kind);
    spdlog::debug("{}: {} memory kind {} contents lost: {}", name(), state_.names.quadrant[q], unsigned(kind), why);
}

void PowerControl::after_sram_write(uint32_t q, uint32_t old_value) {
    const uint32_t now = state_.quadrant[q].sram;
    const RegField pd = fields_.REG_SRAM.PD;
    if (pd.is_set(now) && !pd.is_set(old_value)) {
        if (before_memory_loss) before_memory_loss();
        for (MemoryKind k : kAllMemories) lose(q, k, "REG_SRAM.PD");
        spdlog::info("{}: {} memories powered down (REG_SRAM.PD); their contents are lost", name(),
                     state_.names.quadrant[q]);
    }
}

void PowerControl::after_aon_ctl_write(uint32_t old_value) {
    bool lost = false;
    for (uint32_t q = 0; q < state_.cfg.quadrants; ++q) {
        const RegField down = fields_.AON_CTL.PWR_DOWN;
        if (!down.bit(state_.aon_ctl, q) || down.bit(old_value, q)) continue;
        if (!lost && before_memory_loss) before_memory_loss();
        lost = true;
        lose(q, MemoryKind::Kernel, "AON_CTL.PWR_DOWN");
        spdlog::info("{}: {} kernel memories powered down (AON_CTL.PWR_DOWN); their contents are lost", name(),
                     state_.names.quadrant[q]);
    }
}

bool PowerControl::memory_asleep(uint32_t q, CnnBlock block, std::string& why) const {
    MemoryKind k;
    if (!memory_kind_of(block, k)) return false;
    const uint32_t sram = state_.quadrant[q].sram;
    if (fields_.REG_SRAM.PD.is_set(sram))
        why = "memories are powered down (REG_SRAM.PD)";
    else if (fields_.REG_SRAM.DS.is_set(sram))
        why = "memories are in deep sleep (REG_SRAM.DS)";
    else if (power_fields::light_sleep(fields_, k).is_set(sram))
        why = "memory is in light sleep (REG_SRAM.LS*)";
    else if (k == MemoryKind::Kernel && fields_.AON_CTL.PWR_DOWN.bit(state_.aon_ctl, q))
        why = "kernel memories are powered down (AON_CTL.PWR_DOWN)";
    else
        return false;
    return true;
}

bool PowerControl::admit(const AccessScope& scope, tlm::tlm_generic_payload& trans) {
    if (scope.quadrant < 0) return true;
    const uint32_t q = uint32_t(scope.quadrant);
    std::string why;
    // No power or isolation: nothing in the domain answers. The silicon's bus
    // would stall ("the device may appear to hang"); the model answers with a
    // bus error so that the firmware faults where it went wrong.
    if (!powered(q))
        why = "is not powered (GCFR REG0)";
    else if (isolated(q))
        why = "is isolated (GCFR REG2)";
    if (!why.empty()) {
        warn_access(q, why + "; bus error", trans);
        trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        return false;
    }
    // Held in reset, or a memory asleep: the domain answers, but nothing is
    // stored and reads return 0.
    if (in_reset(q))
        why = "is held in reset (GCFR REG3)";
    else if (!memory_asleep(q, scope.block, why))
        return true;
    warn_access(q, why + "; write ignored, read returns 0", trans);
    if (trans.is_read()) std::memset(trans.get_data_ptr(), 0, trans.get_data_length());
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    return false;
}

void PowerControl::warn_access(uint32_t q, const std::string& why, tlm::tlm_generic_payload& trans) {
    const std::string& quad = state_.names.quadrant[q];
    refused_.warn("refused access, " + quad + " " + why.substr(0, why.find(';')),
                  fmt::format("{}: {} of 0x{:08x}: {} {}", name(), trans.is_read() ? "read" : "write",
                              trans.get_address(), quad, why));
}

std::string PowerControl::missing_clock(uint32_t running) const {
    std::string why;
    auto add = [&why](const std::string& s) { why += (why.empty() ? "" : "; ") + s; };
    if (!clock_) add("the CNN peripheral clock is gated (GCR PCLKDIS0.CNN)");
    for (uint32_t q = 0; q < state_.cfg.quadrants; ++q)
        if ((running >> q & 1) && !fields_.REG_CTL.CLK_EN.is_set(state_.quadrant[q].ctl))
            add(state_.names.quadrant[q] + " clock is off (REG_CTL.CLK_EN)");
    return why;
}

}  // namespace ai8x
