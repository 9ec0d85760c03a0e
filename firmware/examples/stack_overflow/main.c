/* Recurses far deeper than the 8 KiB the linker script reserves for the stack:
 * the frames of sum_depth() grow down into the heap region. Nothing faults (the
 * board has no MPU), so only the memory checker can tell; it must name
 * sum_depth and the stack. */
#include <stdint.h>
#include <stdio.h>
#include "mxc.h"

#define DEPTH 400 /* about 80 bytes a frame: some 32 KiB of stack */

__attribute__((noinline)) uint32_t sum_depth(uint32_t depth)
{
    volatile uint32_t frame[16];
    for (int i = 0; i < 16; i++) frame[i] = depth + (uint32_t) i;
    if (depth == 0) return frame[0];
    return sum_depth(depth - 1) + frame[depth % 16];
}

int main(void)
{
    printf("sum over %d frames: %u\n", DEPTH, (unsigned) sum_depth(DEPTH));
    return 0;
}
