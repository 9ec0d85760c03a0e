#include "model/snoop.h"

#include <algorithm>

#include "model/registers/register_fields.h"

namespace ai8x {

namespace {

// VALUE_SEL codes of the generator's snoop tests.
constexpr uint32_t kCompareWord = 8;
constexpr unsigned kTopByteShift = 24;

}  // namespace

SnoopUnits::SnoopUnits(AcceleratorState& state, int master) : state_(state) {
    const DeviceConfig& cfg = state.cfg;
    if (register_fields(cfg).REG_SNP1_C1.ENABLE.width == 0 || master < 0) return;
    address_offset_ = static_cast<uint32_t>((cfg.data_sram.base - cfg.quadrant_regs.base) / 4);
    QuadrantRegisters& regs = state.quadrant[static_cast<std::size_t>(master)];
    using R = QuadrantRegister;
    const auto at = [&regs](R r) { return &regs.global(r); };
    units_.push_back(Unit{at(R::REG_SNP1_A1), at(R::REG_SNP1_A2), at(R::REG_SNP1_D1), at(R::REG_SNP1_D2),
                          at(R::REG_SNP1_X1), at(R::REG_SNP1_X2), at(R::REG_SNP1_C1), at(R::REG_SNP1_C2),
                          at(R::REG_SNP1_ACC), at(R::REG_SNP1_HIT), at(R::REG_SNP1_MAX), at(R::REG_SNP1_AM)});
    units_.push_back(Unit{at(R::REG_SNP2_A1), at(R::REG_SNP2_A2), at(R::REG_SNP2_D1), at(R::REG_SNP2_D2),
                          at(R::REG_SNP2_X1), at(R::REG_SNP2_X2), at(R::REG_SNP2_C1), at(R::REG_SNP2_C2),
                          at(R::REG_SNP2_ACC), at(R::REG_SNP2_HIT), at(R::REG_SNP2_MAX), at(R::REG_SNP2_AM)});
}

bool SnoopUnits::enabled(const Unit& u) const { return register_fields(state_.cfg).REG_SNP1_C1.ENABLE.is_set(*u.c1); }

bool SnoopUnits::any_enabled() const {
    return std::any_of(units_.begin(), units_.end(), [this](const Unit& u) { return enabled(u); });
}

bool SnoopUnits::watches(const Unit& u, int layer) const {
    return enabled(u) && register_fields(state_.cfg).REG_SNP1_C2.LAYER.get(*u.c2) == static_cast<uint32_t>(layer);
}

// The last watched address: A1 alone, or A2; a range is cut at the size of
// data memory (words outside it are never written).
uint32_t SnoopUnits::last_address(const Unit& u) const {
    const uint64_t words = uint64_t{state_.cfg.data_sram.words} * state_.data_sram.size();
    const uint64_t last = *u.a2 == 0 ? *u.a1 : std::max(*u.a1, *u.a2);
    return static_cast<uint32_t>(std::min<uint64_t>(last, uint64_t{*u.a1} + words));
}

bool SnoopUnits::locate(uint32_t address, Word& w) const {
    const DeviceConfig& cfg = state_.cfg;
    if (address < address_offset_) return false;
    const uint32_t pointer = address - address_offset_;
    const uint32_t shift = cfg.data_sram.pointer_instance_shift;
    w.instance = shift ? pointer >> shift : pointer / cfg.data_sram.words;
    w.index = shift ? pointer & ((1u << shift) - 1) : pointer % cfg.data_sram.words;
    return w.instance < state_.data_sram.size() && w.index < cfg.data_sram.words;
}

void SnoopUnits::before(int layer) {
    for (Unit& u : units_) {
        u.watching = watches(u, layer);
        u.saved_flags.clear();
        if (!u.watching) continue;
        for (uint32_t a = *u.a1; a <= last_address(u); ++a) {
            Word w;
            const bool in_memory = locate(a, w);
            uint8_t* flag = in_memory ? &state_.data_written[w.instance][w.index] : nullptr;
            u.saved_flags.push_back(flag ? *flag : 0);
            if (flag) *flag = 0;
        }
    }
}

bool SnoopUnits::matches(const Unit& u, uint32_t word, uint32_t& value) const {
    const RegisterFields& f = register_fields(state_.cfg);
    value = f.REG_SNP1_C1.VALUE_SEL.get(*u.c1) == kCompareWord ? word : word >> kTopByteShift;
    if (*u.d2 == 0) return value == *u.d1;
    return *u.d1 <= value && value <= *u.d2;
}

void SnoopUnits::record_hit(Unit& u, uint32_t address, uint32_t value) const {
    const RegisterFields& f = register_fields(state_.cfg);
    if (f.REG_SNP1_C1.ACC_EN.is_set(*u.c1)) *u.acc += value;
    if (f.REG_SNP1_C1.HIT_EN.is_set(*u.c1)) ++*u.hit;
    if (f.REG_SNP1_C1.MAX_EN.is_set(*u.c1) && value > *u.max) {
        *u.max = value;
        *u.am = address;
    }
}

SnoopDecision SnoopUnits::after() {
    const RegisterFields& f = register_fields(state_.cfg);
    SnoopDecision d;
    for (Unit& u : units_) {
        if (enabled(u) && f.REG_SNP1_C1.LINK.is_set(*u.c1)) d.conditional_links = true;
        if (!u.watching) continue;
        uint32_t hits = 0;
        std::size_t k = 0;
        for (uint32_t a = *u.a1; a <= last_address(u); ++a, ++k) {
            Word w;
            if (!locate(a, w)) continue;
            uint8_t& flag = state_.data_written[w.instance][w.index];
            uint32_t value = 0;
            if (flag && matches(u, state_.data_sram[w.instance][w.index], value)) {
                ++hits;
                record_hit(u, a, value);
            }
            flag = static_cast<uint8_t>(flag | u.saved_flags[k]);
        }
        const bool counted = f.REG_SNP1_C1.COUNT_MODE.get(*u.c1) != 0;
        const bool triggered = counted ? hits < *u.x1 || hits > *u.x2 : hits > 0;
        u.watching = false;
        if (!triggered) continue;
        d.take_link = d.take_link || f.REG_SNP1_C1.LINK.is_set(*u.c1);
        d.stop = d.stop || f.REG_SNP1_C1.STOP.is_set(*u.c1);
    }
    return d;
}

}  // namespace ai8x
