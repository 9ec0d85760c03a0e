#include "firmware/host/thumb_timing.h"

#include <bitset>

namespace ai8x {

namespace {

uint32_t registers_in(uint32_t list) { return uint32_t(std::bitset<16>(list).count()); }

ThumbCost load(bool after_access, const CpuTiming& t) {
    // A load right behind another load or store overlaps its address phase
    // with that one's data phase (TRM: "neighboring load and store single-cycle pipelining").
    return {after_access ? t.pipelined_load_cycles : t.load_cycles, true, false};
}
ThumbCost store(const CpuTiming& t) { return {t.store_cycles, true, false}; }
ThumbCost multiple(uint32_t registers, const CpuTiming& t) {
    return {t.cycles_per_instruction + registers * t.transfer_register_cycles, true, false};
}
ThumbCost branch(const CpuTiming& t) { return {t.cycles_per_instruction, false, true}; }
ThumbCost plain(const CpuTiming& t) { return {t.cycles_per_instruction, false, false}; }

// 16-bit encodings (ARMv7-M Architecture Reference Manual, A5.2).
ThumbCost narrow(uint16_t hw, bool after_access, const CpuTiming& t) {
    if ((hw & 0xFF00) == 0x4700) return branch(t);  // BX, BLX
    if ((hw & 0xFC00) == 0x4400 && (((hw >> 4) & 8) | (hw & 7)) == 15 && (hw & 0x0300) != 0x0100)
        return branch(t);                                       // ADD/MOV to PC
    if ((hw & 0xF800) == 0x4800) return load(after_access, t);  // LDR literal
    if ((hw & 0xF000) == 0x5000)                                // register offset
        return ((hw >> 9) & 7) < 3 ? store(t) : load(after_access, t);
    if ((hw & 0xE000) == 0x6000 || (hw & 0xE000) == 0x8000)  // immediate / halfword / SP-relative
        return (hw & 0x0800) ? load(after_access, t) : store(t);
    if ((hw & 0xFE00) == 0xB400) return multiple(registers_in(hw & 0x1FF), t);  // PUSH (bit 8: LR)
    if ((hw & 0xFE00) == 0xBC00) {                                              // POP (bit 8: PC)
        ThumbCost c = multiple(registers_in(hw & 0x1FF), t);
        c.branch = (hw & 0x0100) != 0;
        return c;
    }
    if ((hw & 0xF500) == 0xB100) return branch(t);                                       // CBZ, CBNZ
    if ((hw & 0xF000) == 0xC000) return multiple(registers_in(hw & 0xFF), t);            // STM, LDM
    if ((hw & 0xF000) == 0xD000) return (hw & 0x0E00) == 0x0E00 ? plain(t) : branch(t);  // B<c> (not UDF/SVC)
    if ((hw & 0xF800) == 0xE000) return branch(t);                                       // B
    return plain(t);
}

// 32-bit encodings (A5.3).
ThumbCost wide(uint16_t hw1, uint16_t hw2, bool after_access, const CpuTiming& t) {
    if ((hw1 & 0xFE40) == 0xE800) {  // LDM/STM (.W, DB); an LDM that loads PC branches
        ThumbCost c = multiple(registers_in(hw2), t);
        c.branch = (hw1 & 0x0010) && (hw2 & 0x8000);
        return c;
    }
    if ((hw1 & 0xFE40) == 0xE840) {                                  // dual, exclusive, table branch
        if ((hw1 & 0xFFF0) == 0xE8D0 && (hw2 & 0xFFE0) == 0xF000) {  // TBB, TBH: a load, then the branch
            ThumbCost c = load(after_access, t);
            c.branch = true;
            return c;
        }
        if (hw1 & 0x0120) return multiple(2, t);                   // LDRD/STRD (P or W set): 1 + 2
        return (hw1 & 0x0010) ? load(after_access, t) : store(t);  // LDREX*/STREX*
    }
    if ((hw1 & 0xF800) == 0xF000 && (hw2 & 0x8000)) {                        // branches and miscellaneous control
        if (hw2 & 0x1000) return branch(t);                                  // B.W, BL
        if ((hw2 & 0x5000) == 0 && ((hw1 >> 7) & 7) != 7) return branch(t);  // B<c>.W
        return plain(t);                                                     // MSR, MRS, hints, barriers
    }
    if ((hw1 & 0xFE00) == 0xF800) return (hw1 & 0x0010) ? load(after_access, t) : store(t);  // single load/store
    return plain(t);
}

}  // namespace

ThumbCost thumb_instruction_cost(uint16_t hw1, uint16_t hw2, bool after_access, const CpuTiming& t) {
    return (hw1 >> 11) >= 0x1D ? wide(hw1, hw2, after_access, t) : narrow(hw1, after_access, t);
}

}  // namespace ai8x
