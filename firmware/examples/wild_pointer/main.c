/* A slot lookup returns -1 for an unknown key and store_reading() uses it
 * unchecked: the store lands in the word before the malloc'd array, where
 * newlib's allocator keeps the block's size. The memory checker must name
 * store_reading and the heap block's header. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "mxc.h"

#define SLOTS 8

__attribute__((noinline)) int slot_of(int key)
{
    return key - 1; /* keys start at 1; 0 means "none" and yields -1 */
}

__attribute__((noinline)) void store_reading(int32_t *readings, int key, int32_t value)
{
    readings[slot_of(key)] = value;
}

int main(void)
{
    int32_t *readings = malloc(SLOTS * sizeof *readings);
    if (!readings) return 1;
    store_reading(readings, 3, 100);
    store_reading(readings, 0, 0x7fff);
    printf("reading 3: %d\n", (int) readings[2]);
    free(readings);
    return 0;
}
