// Store counting of Thumb-2 instructions (the memory checker's way from a
// block and a store number to the storing instruction). Encodings as the GNU
// assembler emits them (arm-none-eabi-objdump of the bundled examples).
#include <catch2/catch.hpp>

#include "firmware/host/thumb_stores.h"

using ai8x::thumb_length;
using ai8x::thumb_store_count;

TEST_CASE("16-bit stores, pushes and non-stores", "[thumb]") {
    CHECK(thumb_store_count(0x5483, 0) == 1);  // strb r3, [r0, r2]
    CHECK(thumb_store_count(0x6281, 0) == 1);  // str r1, [r0, #40]
    CHECK(thumb_store_count(0x9800, 0) == 0);  // ldr r0, [sp, #0]
    CHECK(thumb_store_count(0xB510, 0) == 2);  // push {r4, lr}
    CHECK(thumb_store_count(0xB410, 0) == 1);  // push {r4}
    CHECK(thumb_store_count(0xBC10, 0) == 0);  // pop {r4}
    CHECK(thumb_store_count(0x4770, 0) == 0);  // bx lr
    CHECK(thumb_length(0x5483) == 2);
}

TEST_CASE("32-bit stores: single, dual, multiple", "[thumb]") {
    CHECK(thumb_length(0xF842) == 4);
    CHECK(thumb_store_count(0xF842, 0x1C40) == 1);   // str.w r1, [r2, #-64]
    CHECK(thumb_store_count(0xE9C0, 0x3312) == 2);   // strd r3, r3, [r0, #72]
    CHECK(thumb_store_count(0xE92D, 0x4FF8) == 10);  // stmdb sp!, {r3-fp, lr}
    CHECK(thumb_store_count(0xF7FF, 0xFF9E) == 0);   // bl
    CHECK(thumb_store_count(0xF8DF, 0xB084) == 0);   // ldr.w fp, [pc, #132]
    CHECK(thumb_store_count(0xFBA4, 0xC302) == 0);   // umull ip, r3, r4, r2
}

TEST_CASE("base register of stores", "[thumb]") {
    CHECK(ai8x::thumb_store_base(0x5483) == 0);   // strb r3, [r0, r2]
    CHECK(ai8x::thumb_store_base(0x6281) == 0);   // str r1, [r0, #40]
    CHECK(ai8x::thumb_store_base(0x60FB) == 7);   // str r3, [r7, #12]
    CHECK(ai8x::thumb_store_base(0xB510) == 13);  // push {r4, lr}
    CHECK(ai8x::thumb_store_base(0xF842) == 2);   // str.w r1, [r2, #-64]
    CHECK(ai8x::thumb_store_base(0xE9C0) == 0);   // strd r3, r3, [r0, #72]
    CHECK(ai8x::thumb_store_base(0x9800) == -1);  // ldr r0, [sp, #0]
    CHECK(ai8x::thumb_store_base(0xF8DF) == -1);  // ldr.w
}

TEST_CASE("pre-indexed stores with writeback are told apart", "[thumb]") {
    CHECK(ai8x::thumb_store_preindexed(0xF800, 0x3F01));        // strb.w r3, [r0, #1]!
    CHECK(ai8x::thumb_store_preindexed(0xF841, 0x2D04));        // str.w r2, [r1, #-4]!
    CHECK_FALSE(ai8x::thumb_store_preindexed(0xF802, 0x3B01));  // strb.w r3, [r2], #1 (post-index)
    CHECK_FALSE(ai8x::thumb_store_preindexed(0xF842, 0x1C40));  // str.w r1, [r2, #-64] (no writeback)
    CHECK_FALSE(ai8x::thumb_store_preindexed(0xF810, 0x3F01));  // ldrb.w r3, [r0, #1]!
    CHECK_FALSE(ai8x::thumb_store_preindexed(0x5483, 0x0000));  // strb r3, [r0, r2]
}
