// The polling loops the CPU may fast-forward (firmware/host/thumb_spin_loop.h).
// Encodings as arm-none-eabi-gcc emits them for the generated FIFO waits
// (objdump of demo-cats-dogs' load_input) and hand-assembled variations.
#include <catch2/catch.hpp>

#include "firmware/host/thumb_spin_loop.h"

using ai8x::thumb_idempotent_poll_loop;

namespace {
constexpr uint32_t kAt = 0x10000ac2;
}

TEST_CASE("generated FIFO wait loops are fast-forwardable", "[thumb][poll]") {
    // ldr r3, [r2, #4]; lsls r3, r3, #31; bmi <start>
    CHECK(thumb_idempotent_poll_loop({0x6853, 0x07DB, 0xD4FC}, kAt));
    // ldr.w r3, [r2, #4]; tst.w r3, #2; bne <start>
    CHECK(thumb_idempotent_poll_loop({0xF8D2, 0x3004, 0xF013, 0x0F02, 0xD1FA}, kAt));
    // ldr r3, [r2, #4]; cmp r3, #0; beq <start>
    CHECK(thumb_idempotent_poll_loop({0x6853, 0x2B00, 0xD0FC}, kAt));
}

TEST_CASE("loops that change state or read last pass's values are not", "[thumb][poll]") {
    // ldr r3, [r3, #4]: its address register is the value it loads.
    CHECK_FALSE(thumb_idempotent_poll_loop({0x685B, 0x07DB, 0xD4FC}, kAt));
    // lsls r3, r3, #31 before the load: reads the previous pass's r3.
    CHECK_FALSE(thumb_idempotent_poll_loop({0x07DB, 0x6853, 0xD4FC}, kAt));
    // adds r1, #1 counts the passes.
    CHECK_FALSE(thumb_idempotent_poll_loop({0x6853, 0x3101, 0x07DB, 0xD4FB}, kAt));
    // str r3, [r2, #8]: a store.
    CHECK_FALSE(thumb_idempotent_poll_loop({0x6853, 0x6093, 0x07DB, 0xD4FB}, kAt));
    // Two loads.
    CHECK_FALSE(thumb_idempotent_poll_loop({0x6853, 0x6851, 0x07DB, 0xD4FB}, kAt));
    // No load: lsls r3, r3, #31; bmi.
    CHECK_FALSE(thumb_idempotent_poll_loop({0x07DB, 0xD4FD}, kAt));
}

TEST_CASE("the closing branch must return to the block's start on N or Z", "[thumb][poll]") {
    // bmi one halfword short of the start.
    CHECK_FALSE(thumb_idempotent_poll_loop({0x6853, 0x07DB, 0xD4FD}, kAt));
    // bcs (carry): a flag the accepted instructions do not all set.
    CHECK_FALSE(thumb_idempotent_poll_loop({0x6853, 0x07DB, 0xD2FC}, kAt));
    // No branch at the end.
    CHECK_FALSE(thumb_idempotent_poll_loop({0x6853, 0x07DB}, kAt));
    // A truncated 32-bit instruction.
    CHECK_FALSE(thumb_idempotent_poll_loop({0x6853, 0xF8D2}, kAt));
    CHECK_FALSE(thumb_idempotent_poll_loop({}, kAt));
}
