#include "model/power/power_domain.h"

#include <cstring>

#include <spdlog/spdlog.h>

#include "model/power/memory_self_test.h"
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

PowerDomain::PowerDomain(sc_core::sc_module_name name, AcceleratorState& state, uint32_t quadrant)
    : sc_module(name), state_(state), fields_(register_fields(state.cfg)), q_(quadrant), refused_(this->name()) {}

void PowerDomain::assume_soc_reset() {
    powered_ = memory_ = reset_ = false;
    isolated_ = true;
}

void PowerDomain::set_powered(bool on) {
    const bool was = powered_;
    powered_ = on;
    if (!was || on) return;
    reset_registers("power removed (GCFR REG0)");
    if (!memory_) lose_domain_memories("power removed (GCFR REG0, REG1)");
}

void PowerDomain::set_memory_supplied(bool on) {
    const bool was_supplied = sram_supplied();
    memory_ = on;
    if (was_supplied && !sram_supplied()) lose_domain_memories("memory supply removed (GCFR REG1)");
}

void PowerDomain::set_isolated(bool on) {
    isolated_ = on;
    spdlog::debug("{}: {}", name(), on ? "isolated" : "not isolated");
}

void PowerDomain::set_held_in_reset(bool on) {
    const bool was = reset_;
    reset_ = on;
    if (on && !was) reset_registers("soft reset (GCFR REG3)");
}

void PowerDomain::reset_registers(const char* why) {
    state_.quadrant[q_].clear();
    ++register_resets_;
    spdlog::debug("{}: {} registers to their reset values: {}", name(), quadrant_name(), why);
    if (on_registers_reset) on_registers_reset();
}

void PowerDomain::lose(MemoryKind kind, const char* why) {
    lose_quadrant_memory(state_, q_, kind);
    spdlog::debug("{}: {} memory kind {} contents lost: {}", name(), quadrant_name(), unsigned(kind), why);
}

void PowerDomain::lose_domain_memories(const char* why) {
    if (before_memory_loss) before_memory_loss();
    for (MemoryKind k : kDomainMemories) lose(k, why);
}

void PowerDomain::after_sram_write(uint32_t old_value) {
    const RegField pd = fields_.REG_SRAM.PD;
    if (!pd.is_set(state_.quadrant[q_].sram) || pd.is_set(old_value)) return;
    if (before_memory_loss) before_memory_loss();
    for (MemoryKind k : kAllMemories) lose(k, "REG_SRAM.PD");
    spdlog::info("{}: {} memories powered down (REG_SRAM.PD); their contents are lost", name(), quadrant_name());
}

void PowerDomain::after_sram_test_write(uint32_t old_value) {
    if (inference_running && inference_running())
        spdlog::warn("{}: memory self test of quadrant {} started during an inference", name(), q_);
    const std::string ran = run_memory_self_test(state_, q_, old_value);
    if (!ran.empty())
        spdlog::debug("{}: {} memory self test ({}): passed, memories zeroed", name(), quadrant_name(), ran);
}

void PowerDomain::power_down_kernels() {
    if (before_memory_loss) before_memory_loss();
    lose(MemoryKind::Kernel, "AON_CTL.PWR_DOWN");
    spdlog::info("{}: {} kernel memories powered down (AON_CTL.PWR_DOWN); their contents are lost", name(),
                 quadrant_name());
}

bool PowerDomain::memory_asleep(CnnBlock block, std::string& why) const {
    MemoryKind k;
    if (!memory_kind_of(block, k)) return false;
    const uint32_t sram = state_.quadrant[q_].sram;
    if (fields_.REG_SRAM.PD.is_set(sram))
        why = "memories are powered down (REG_SRAM.PD)";
    else if (fields_.REG_SRAM.DS.is_set(sram))
        why = "memories are in deep sleep (REG_SRAM.DS)";
    else if (power_fields::light_sleep(fields_, k).is_set(sram))
        why = "memory is in light sleep (REG_SRAM.LS*)";
    else if (k == MemoryKind::Kernel && fields_.AON_CTL.PWR_DOWN.bit(state_.aon_ctl, q_))
        why = "kernel memories are powered down (AON_CTL.PWR_DOWN)";
    else
        return false;
    return true;
}

bool PowerDomain::admit(CnnBlock block, tlm::tlm_generic_payload& trans) {
    std::string why;
    // No power or isolation: nothing in the domain answers. The silicon's bus
    // would stall ("the device may appear to hang"); the model answers with a
    // bus error so that the firmware faults where it went wrong.
    if (!powered_)
        why = "is not powered (GCFR REG0)";
    else if (isolated_)
        why = "is isolated (GCFR REG2)";
    if (!why.empty()) {
        warn_access(why + "; bus error", trans);
        trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        return false;
    }
    // Held in reset, or a memory asleep: the domain answers, but nothing is
    // stored and reads return 0.
    if (reset_)
        why = "is held in reset (GCFR REG3)";
    else if (!memory_asleep(block, why))
        return true;
    warn_access(why + "; write ignored, read returns 0", trans);
    if (trans.is_read()) std::memset(trans.get_data_ptr(), 0, trans.get_data_length());
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    return false;
}

void PowerDomain::warn_access(const std::string& why, tlm::tlm_generic_payload& trans) {
    refused_.warn("refused access, " + quadrant_name() + " " + why.substr(0, why.find(';')),
                  fmt::format("{}: {} of 0x{:08x}: {} {}", name(), trans.is_read() ? "read" : "write",
                              trans.get_address(), quadrant_name(), why));
}

}  // namespace ai8x
