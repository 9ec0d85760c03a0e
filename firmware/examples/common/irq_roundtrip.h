/* Interrupt round trip used by the CPU tests: start a device that raises the
 * CNN interrupt after a fixed delay, wait for the handler, and report how
 * long it took. The test board's stand-in device sits at the address of the
 * accelerator's quadrant-0 control register and interrupts 50 us after a 1 is
 * written; writing 0 acknowledges. WAIT_FOR_IRQ() decides how the CPU waits. */
#include <stdint.h>
#include <stdio.h>
#include "mxc.h"

#define DEVICE_CTL ((volatile uint32_t *) 0x50100000)

static volatile int irq_count;

static void device_isr(void)
{
    *DEVICE_CTL = 0;
    irq_count++;
}

int main(void)
{
    MXC_NVIC_SetVector(CNN_IRQn, device_isr);
    MXC_TMR_SW_Start(MXC_TMR0);
    *DEVICE_CTL = 1;
    while (irq_count == 0)
        WAIT_FOR_IRQ();
    unsigned int us = MXC_TMR_SW_Stop(MXC_TMR0);
    printf("interrupts: %d, after %u us\n", irq_count, us);
    return irq_count == 1 ? 0 : 1;
}
