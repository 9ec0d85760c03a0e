#include "firmware/host/thumb_spin_loop.h"

#include "firmware/host/thumb_stores.h"

namespace ai8x {

namespace {

constexpr uint32_t kFlagsNZ = 1u << 16;  // the N and Z flags, as one pseudo-register
constexpr uint32_t reg(unsigned r) { return 1u << r; }

struct Effect {
    bool known = false;  // one of the accepted instructions
    uint32_t reads = 0, writes = 0;
    bool load = false;
    bool branch = false;
    uint32_t target = 0;  // branch target
};

// Encodings from the ARMv7-M Architecture Reference Manual, A5.2 and A5.3.
// Only what compilers emit for `while (*reg & mask)`-style loops is accepted;
// every flag-setting instruction accepted sets both N and Z. Instructions in
// an IT block would not set flags, but an IT instruction is rejected.
Effect decode(uint16_t hw, uint16_t hw2, uint32_t at) {
    Effect e;
    const unsigned lo = hw & 7, mid = (hw >> 3) & 7;
    if (thumb_length(hw) == 2) {
        e.known = true;
        if ((hw & 0xF800) == 0x6800) {  // LDR Rt, [Rn, #imm5]
            e.reads = reg(mid), e.writes = reg(lo), e.load = true;
        } else if ((hw & 0xF000) == 0x0000) {  // LSLS/LSRS Rd, Rm, #imm5 (MOVS Rd, Rm)
            e.reads = reg(mid), e.writes = reg(lo) | kFlagsNZ;
        } else if ((hw & 0xFFC0) == 0x4200 || (hw & 0xFFC0) == 0x4280) {  // TST/CMP Rn, Rm
            e.reads = reg(lo) | reg(mid), e.writes = kFlagsNZ;
        } else if ((hw & 0xFFC0) == 0x4000) {  // ANDS Rdn, Rm
            e.reads = reg(lo) | reg(mid), e.writes = reg(lo) | kFlagsNZ;
        } else if ((hw & 0xF800) == 0x2800) {  // CMP Rn, #imm8
            e.reads = reg((hw >> 8) & 7), e.writes = kFlagsNZ;
        } else if ((hw & 0xF800) == 0x2000) {  // MOVS Rd, #imm8
            e.writes = reg((hw >> 8) & 7) | kFlagsNZ;
        } else if ((hw & 0xF000) == 0xD000 && ((hw >> 8) & 0xE) != 0xE) {  // B<cond>
            const unsigned cond = (hw >> 8) & 0xF;
            // EQ, NE, MI, PL: conditions on N or Z only.
            e.known = cond == 0x0 || cond == 0x1 || cond == 0x4 || cond == 0x5;
            e.reads = kFlagsNZ, e.branch = true;
            e.target = at + 4 + uint32_t(int32_t(int8_t(hw & 0xFF)) * 2);
        } else {
            e.known = false;
        }
        return e;
    }
    const unsigned rn = hw & 0xF;
    if ((hw & 0xFFF0) == 0xF8D0) {  // LDR.W Rt, [Rn, #imm12]
        const unsigned rt = hw2 >> 12;
        e.known = rn != 15 && rt != 15 && rt != 13;
        e.reads = reg(rn), e.writes = reg(rt), e.load = true;
    } else if ((hw & 0xFBF0) == 0xF010 && (hw2 & 0x8000) == 0) {  // ANDS.W Rd, Rn, #const / TST.W Rn, #const
        const unsigned rd = (hw2 >> 8) & 0xF;
        e.known = rn != 13 && rn != 15 && rd != 13;
        e.reads = reg(rn), e.writes = kFlagsNZ | (rd != 15 ? reg(rd) : 0);
    }
    return e;
}

}  // namespace

bool thumb_idempotent_poll_loop(const std::vector<uint16_t>& code, uint32_t address) {
    std::vector<Effect> effects;
    uint32_t written = 0;
    for (std::size_t i = 0; i < code.size();) {
        const bool wide = thumb_length(code[i]) == 4;
        if (wide && i + 1 >= code.size()) return false;
        const Effect e = decode(code[i], wide ? code[i + 1] : 0, address + uint32_t(2 * i));
        if (!e.known) return false;
        effects.push_back(e);
        written |= e.writes;
        i += wide ? 2 : 1;
    }
    if (effects.empty() || !effects.back().branch || effects.back().target != address) return false;
    unsigned loads = 0;
    uint32_t defined = 0;  // written earlier in this pass
    for (std::size_t k = 0; k < effects.size(); ++k) {
        const Effect& e = effects[k];
        if (e.branch && k + 1 != effects.size()) return false;  // only the closing branch
        if (e.reads & written & ~defined) return false;         // would read last pass's value
        defined |= e.writes;
        loads += e.load ? 1 : 0;
    }
    return loads == 1;
}

}  // namespace ai8x
