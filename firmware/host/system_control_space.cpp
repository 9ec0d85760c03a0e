#include "firmware/host/system_control_space.h"

namespace ai8x {

namespace {
// Offsets from 0xE000E000 (ARMv7-M architecture reference, B3.2 / B3.4).
constexpr uint32_t kIser = 0x100, kIcer = 0x180, kIspr = 0x200, kIcpr = 0x280, kBankBytes = 0x20;
constexpr uint32_t kCpuid = 0xD00, kIcsr = 0xD04, kVtor = 0xD08, kAircr = 0xD0C, kScr = 0xD10, kCcr = 0xD14;
constexpr uint32_t kCpuidCortexM4r0p1 = 0x410FC241;
constexpr uint32_t kCcrStkAlign = 1u << 9;  // 8-byte stack alignment on exception entry
constexpr uint32_t kVtorMask = 0xFFFFFF80;  // TBLOFF, bits 31:7
// SCR bits software can write: SLEEPONEXIT (1), SLEEPDEEP (2), SEVONPEND (4).
constexpr uint32_t kScrWritable = (1u << 1) | (1u << 2) | (1u << 4);
constexpr uint32_t kScrSleepDeep = 1u << 2;
// AIRCR: reads show VECTKEYSTAT 0xFA05; a write takes effect only with VECTKEY 0x05FA.
constexpr uint32_t kAircrKeyStat = 0xFA050000, kAircrKey = 0x05FA0000, kAircrPrigroup = 7u << 8;

bool in_bank(uint32_t offset, uint32_t bank, unsigned& word) {
    if (offset < bank || offset >= bank + kBankBytes) return false;
    word = (offset - bank) / 4;
    return true;
}
}  // namespace

bool SystemControlSpace::read(uint32_t offset, uint32_t& value) const {
    unsigned w;
    if (in_bank(offset, kIser, w) || in_bank(offset, kIcer, w)) {
        value = enabled_[w];
        return true;
    }
    if (in_bank(offset, kIspr, w) || in_bank(offset, kIcpr, w)) {
        value = pending_[w];
        return true;
    }
    switch (offset) {
        case kCpuid: value = kCpuidCortexM4r0p1; return true;
        case kIcsr: value = 0; return true;  // thread mode as far as QEMU knows; see cortex_m4.cpp
        case kVtor: value = vtor_; return true;
        case kAircr: value = kAircrKeyStat | prigroup_; return true;
        case kScr: value = scr_; return true;
        case kCcr: value = kCcrStkAlign; return true;
        default: return false;
    }
}

bool SystemControlSpace::write(uint32_t offset, uint32_t value) {
    unsigned w;
    if (in_bank(offset, kIser, w)) {
        enabled_[w] |= value;
        return true;
    }
    if (in_bank(offset, kIcer, w)) {
        enabled_[w] &= ~value;
        return true;
    }
    if (in_bank(offset, kIspr, w)) {
        pending_[w] |= value;
        return true;
    }
    if (in_bank(offset, kIcpr, w)) {
        pending_[w] &= ~value;
        return true;
    }
    switch (offset) {
        case kVtor: vtor_ = value & kVtorMask; return true;
        case kScr: scr_ = value & kScrWritable; return true;
        case kAircr:
            // PRIGROUP is kept for read-back; all priorities are equal here, so it
            // changes nothing. SYSRESETREQ / VECTRESET are not modelled.
            if ((value & 0xFFFF0000u) == kAircrKey) prigroup_ = value & kAircrPrigroup;
            return true;
        case kIcsr:
        case kCcr: return true;  // no modelled effect
        default: return false;
    }
}

bool SystemControlSpace::sleep_deep() const { return (scr_ & kScrSleepDeep) != 0; }

std::optional<unsigned> SystemControlSpace::next_interrupt() const {
    for (unsigned w = 0; w < enabled_.size(); ++w) {
        uint32_t ready = enabled_[w] & pending_[w];
        if (ready) return w * 32 + unsigned(__builtin_ctz(ready));
    }
    return std::nullopt;
}

}  // namespace ai8x
