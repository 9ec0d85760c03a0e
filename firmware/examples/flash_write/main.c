/* Writes through a pointer into a const table, which the linker placed in
 * flash: the run stops with a fault, and the memory checker names the writing
 * function and the table. */
#include <stdint.h>
#include <stdio.h>
#include "mxc.h"

static const uint32_t calibration[4] = {11, 22, 33, 44};

__attribute__((noinline)) void update_calibration(uint32_t *table, int index, uint32_t value)
{
    table[index] = value;
}

int main(void)
{
    update_calibration((uint32_t *) calibration, 2, 7);
    printf("calibration[2] = %u\n", (unsigned) calibration[2]);
    return 0;
}
