#include "firmware/host/thumb_stores.h"

#include <bitset>

namespace ai8x {

// Encodings from the ARMv7-M Architecture Reference Manual, A5.2 (16-bit) and
// A5.3 (32-bit): only the store classes; floating-point stores do not occur
// (firmware is built for soft float).
unsigned thumb_store_count(uint16_t first, uint16_t second) {
    if (thumb_length(first) == 2) {
        const unsigned op7 = first >> 9;
        if (op7 == 0x28 || op7 == 0x29 || op7 == 0x2A) return 1;  // STR/STRH/STRB (register)
        const unsigned op5 = first >> 11;
        if (op5 == 0x0C || op5 == 0x0E || op5 == 0x10 || op5 == 0x12) return 1;  // STR/STRB/STRH imm, STR SP-relative
        if ((first & 0xFE00) == 0xB400) return unsigned(std::bitset<9>(first & 0x1FF).count());  // PUSH {..., LR}
        if (op5 == 0x18) return unsigned(std::bitset<8>(first & 0xFF).count());                  // STMIA
        return 0;
    }
    if ((first & 0xFFD0) == 0xE880 || (first & 0xFFD0) == 0xE900)  // STMIA.W, STMDB / PUSH.W
        return unsigned(std::bitset<16>(second).count());
    if ((first & 0xFE50) == 0xE840) return (first & 0x0120) ? 2 : 1;  // STRD (P or W set), else STREX*
    if ((first & 0xFF10) == 0xF800) return 1;                         // STR/STRH/STRB .W, all addressing modes
    return 0;
}

bool thumb_store_preindexed(uint16_t first, uint16_t second) {
    const uint16_t op = first & 0xFFF0;
    const bool str_imm8 = (op == 0xF800 || op == 0xF820 || op == 0xF840) && (second & 0x0800);  // encoding T4
    return str_imm8 && (second & 0x0500) == 0x0500;                                             // P = 1, W = 1
}

int thumb_store_base(uint16_t first) {
    if (thumb_length(first) == 4) return thumb_store_count(first, 0xFFFF) ? int(first & 0xF) : -1;
    const unsigned op5 = first >> 11;
    if ((first & 0xFE00) == 0xB400 || op5 == 0x12) return 13;  // PUSH, STR SP-relative
    if (op5 == 0x18) return int((first >> 8) & 0x7);           // STMIA Rn!, {...}
    return thumb_store_count(first, 0) ? int((first >> 3) & 0x7) : -1;
}

}  // namespace ai8x
