/* Mirrors a generated main.c for a network with several output layers: the
 * output buffer is sized from the last layer's output count, while
 * unload_outputs() (cnn_unload in generated code) writes every output layer
 * into it. The stores run thousands of bytes past ml_data32, through the rest
 * of .bss into the heap, where newlib keeps stdout's FILE; the PASS line that
 * follows then uses the corrupted FILE and the run ends with a bus fault inside
 * the C library. The memory checker must name unload_outputs and ml_data32. */
#include <stdint.h>
#include <stdio.h>
#include "mxc.h"

#define CNN_OK 1
#define LAST_LAYER_OUTPUTS 40 /* what the buffer is sized for */
#define ALL_LAYER_OUTPUTS 4096 /* what the unload writes */

static int32_t ml_data32[(LAST_LAYER_OUTPUTS + 3) / 4];

/* Stands in for the known-answer test, which passes before the overrun. */
__attribute__((noinline)) int check_output(void)
{
    return CNN_OK;
}

__attribute__((noinline)) void unload_outputs(uint32_t *out_buf32)
{
    volatile uint8_t *out_buf = (volatile uint8_t *) out_buf32;
    for (int i = 0; i < ALL_LAYER_OUTPUTS; i++) out_buf[i] = (uint8_t) ('A' + i % 26);
}

int main(void)
{
    printf("*** CNN Inference Test buffer_overrun ***\n");
    if (check_output() != CNN_OK) return 1;
    unload_outputs((uint32_t *) ml_data32);
    printf("\n*** PASS ***\n\n");
    printf("first output %d\n", (int) ml_data32[0]);
    return 0;
}
