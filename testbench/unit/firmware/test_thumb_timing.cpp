// Instruction classes of the Cortex-M4 cost model (firmware/host/thumb_timing.*),
// on encodings taken from the ARMv7-M Architecture Reference Manual and from
// the FIFO loop of generated firmware (arm-none-eabi-gcc -O2 output). Prices
// are distinct primes so that a misclassified instruction cannot hit the
// expected value by accident.
#include <catch2/catch.hpp>

#include "firmware/host/thumb_timing.h"

using namespace ai8x;

namespace {

CpuTiming distinct_prices() {
    CpuTiming t;
    t.cycles_per_instruction = 1;
    t.load_cycles = 5;
    t.pipelined_load_cycles = 3;
    t.store_cycles = 7;
    t.transfer_register_cycles = 11;
    t.branch_refill_cycles = 13;  // charged by the CPU when a branch is taken, not here
    return t;
}

struct Case {
    const char* what;
    uint16_t hw1, hw2;
    uint32_t cycles;  // alone (not behind a load/store)
    bool access, branch;
};

}  // namespace

TEST_CASE("thumb timing: every instruction class gets its TRM price", "[cpu][timing]") {
    const CpuTiming t = distinct_prices();
    const uint32_t base = t.cycles_per_instruction, ld = t.load_cycles, st = t.store_cycles;
    const uint32_t reg = t.transfer_register_cycles;
    const Case cases[] = {
        {"ldr r3, [r2, #4]", 0x6853, 0, ld, true, false},
        {"ldr.w r3, [r1], #4", 0xF851, 0x3B04, ld, true, false},
        {"ldr.w r3, [r2, #4]", 0xF8D2, 0x3004, ld, true, false},
        {"ldr r1, [pc, #24]", 0x4906, 0, ld, true, false},
        {"ldr r0, [sp, #4]", 0x9801, 0, ld, true, false},
        {"ldr r0, [r1, r2]", 0x5888, 0, ld, true, false},
        {"ldrh r0, [r1]", 0x8808, 0, ld, true, false},
        {"str r3, [r2, #8]", 0x6093, 0, st, true, false},
        {"str.w r3, [r2, #8]", 0xF8C2, 0x3008, st, true, false},
        {"str r0, [sp, #4]", 0x9001, 0, st, true, false},
        {"str r0, [r1, r2]", 0x5088, 0, st, true, false},
        {"strh r0, [r1]", 0x8008, 0, st, true, false},
        {"push {r4, lr}", 0xB510, 0, base + 2 * reg, true, false},
        {"pop {r4, pc}", 0xBD10, 0, base + 2 * reg, true, true},
        {"pop {r4}", 0xBC10, 0, base + 1 * reg, true, false},
        {"ldmia r3!, {r0-r3}", 0xCB0F, 0, base + 4 * reg, true, false},
        {"stmdb sp!, {r4-r8, lr}", 0xE92D, 0x41F0, base + 6 * reg, true, false},
        {"ldmia.w sp!, {r4, pc}", 0xE8BD, 0x8010, base + 2 * reg, true, true},
        {"ldrd r2, r3, [r0]", 0xE9D0, 0x2300, base + 2 * reg, true, false},
        {"tbb [pc, r0]", 0xE8DF, 0xF000, ld, true, true},
        {"bmi (16-bit conditional)", 0xD4FC, 0, base, false, true},
        {"b (16-bit)", 0xE7FE, 0, base, false, true},
        {"bx lr", 0x4770, 0, base, false, true},
        {"mov pc, lr", 0x46F7, 0, base, false, true},
        {"cbz r0", 0xB118, 0, base, false, true},
        {"bl", 0xF000, 0xF800, base, false, true},
        {"beq.w", 0xF000, 0x8000, base, false, true},
        {"lsls r3, r3, #31", 0x07DB, 0, base, false, false},
        {"cmp r1, r0", 0x4281, 0, base, false, false},
        {"add sp, r0", 0x4485, 0, base, false, false},
        {"it eq", 0xBF08, 0, base, false, false},
        {"udf", 0xDE00, 0, base, false, false},
        {"mov.w r2, #0x50000000", 0xF04F, 0x42A0, base, false, false},
        {"dsb sy", 0xF3BF, 0x8F4F, base, false, false},
        {"mul r0, r0, r1", 0xFB00, 0xF001, base, false, false},
    };
    for (const Case& c : cases) {
        INFO(c.what);
        const ThumbCost got = thumb_instruction_cost(c.hw1, c.hw2, false, t);
        CHECK(got.cycles == c.cycles);
        CHECK(got.memory_access == c.access);
        CHECK(got.branch == c.branch);
    }
}

TEST_CASE("thumb timing: a load right behind a load or store pipelines, a store does not change", "[cpu][timing]") {
    const CpuTiming t = distinct_prices();
    CHECK(thumb_instruction_cost(0x6853, 0, true, t).cycles == t.pipelined_load_cycles);             // ldr
    CHECK(thumb_instruction_cost(0xF851, 0x3B04, true, t).cycles == t.pipelined_load_cycles);        // ldr.w
    CHECK(thumb_instruction_cost(0x6093, 0, true, t).cycles == t.store_cycles);                      // str
    CHECK(thumb_instruction_cost(0x07DB, 0, true, t).cycles == t.cycles_per_instruction);            // lsls
    CHECK(thumb_instruction_cost(0xB510, 0, true, t).cycles == 1 + 2 * t.transfer_register_cycles);  // push
}
