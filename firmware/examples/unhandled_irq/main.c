/* Enables the CNN interrupt without installing a handler: when it fires, the
 * startup code's Default_Handler runs and the simulator must stop with an
 * "unhandled exception" error naming the interrupt. Needs the test board's
 * delayed-interrupt device at 0x50100000 (see ../README.md). */
#include <stdint.h>
#include "mxc.h"

int main(void)
{
    NVIC_EnableIRQ(CNN_IRQn);
    *(volatile uint32_t *) 0x50100000 = 1;
    for (;;)
        MXC_LP_EnterSleepMode();
}
