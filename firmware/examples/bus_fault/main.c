/* Reads an address nothing decodes: the simulator must stop with a bus fault
 * that names this function. */
#include <stdint.h>
#include <stdio.h>
#include "mxc.h"

__attribute__((noinline)) uint32_t read_nowhere(void)
{
    return *(volatile uint32_t *) 0x4E000000;
}

int main(void)
{
    printf("value %u\n", (unsigned) read_nowhere());
    return 0;
}
