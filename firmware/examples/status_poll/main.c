/* A busy-bit polling loop in the form the generator's FIFO waits take (load
 * the status, shift the bit into N, branch back while it is set), waiting on
 * the test board's stand-in device at 0x50100000, which reads busy for 50 us
 * after a 1 is written there. The CPU may count the loop's passes instead of
 * executing them (firmware/host/poll_fast_forward.h); `status_loop` labels the
 * loop's first instruction, so that a test can put a breakpoint there. */
#include <stdint.h>
#include "mxc.h"

#define DEVICE_CTL ((volatile uint32_t *) 0x50100000)

/* Returns once bit 0 of *status reads 0. */
__attribute__((naked, noinline)) void wait_while_busy(volatile uint32_t *status)
{
    __asm volatile(
        ".syntax unified\n"
        ".global status_loop\n"
        "status_loop:\n"
        "1:  ldr r1, [r0]\n"
        "    lsls r1, r1, #31\n"
        "    bmi.n 1b\n" /* (a branch to the global label would assemble wide) */
        "    bx lr\n");
}

int main(void)
{
    *DEVICE_CTL = 1;
    wait_while_busy(DEVICE_CTL);
    *DEVICE_CTL = 0;
    return 0;
}
