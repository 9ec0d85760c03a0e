/* C start-up of the RISC-V core: copy .data, clear .bss, enable interrupts
 * (mstatus.MIE; each interrupt still needs its NVIC_EnableIRQ), run main().
 * main's return does not end the simulation: the RISC-V core signals the Arm
 * through the semaphore block, and the Arm's main() returns the verdict. */
#include <stdint.h>
#include "mxc.h"

extern uint32_t __data_load[], __data_start[], __data_end[];
extern uint32_t __bss_start[], __bss_end[];
extern int main(void);

void rv_start(void)
{
    for (uint32_t *src = __data_load, *dst = __data_start; dst < __data_end;) *dst++ = *src++;
    for (uint32_t *dst = __bss_start; dst < __bss_end;) *dst++ = 0;
    __enable_irq();
    (void) main();
}

/* An interrupt without a handler: tell the simulator, which names it. */
void Unhandled_IRQHandler(void)
{
    SIMCTL->fault_rv = 1;
    for (;;) {
    }
}

void CNN_IRQHandler(void) __attribute__((weak, alias("Unhandled_IRQHandler")));
void CNN_FIFO_IRQHandler(void) __attribute__((weak, alias("Unhandled_IRQHandler")));
