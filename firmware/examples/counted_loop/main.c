/* A hand-written loop whose instruction count is known by construction, so a
 * test can check the CPU's cycle accounting against it: 16- and 32-bit
 * encodings, and an IT block in which one of the two instructions always fails
 * its condition (on the Cortex-M4 it still takes its issue cycle). */
#include "mxc.h"

/* 1 (movs) + 100 iterations x 7 + 1 (bx lr) = 702 instructions. */
__attribute__((naked, noinline)) void counted_loop(void)
{
    __asm volatile(
        ".syntax unified\n"
        "    movs r0, #100\n"
        "1:  add.w r1, r1, #1\n"
        "    cmp r0, #50\n"
        "    ite eq\n"
        "    addeq r2, r2, #1\n"
        "    subne r2, r2, #1\n"
        "    subs r0, r0, #1\n"
        "    bne 1b\n"
        "    bx lr\n");
}

int main(void)
{
    counted_loop();
    return 0;
}
