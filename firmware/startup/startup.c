/* Reset entry and vector table of ai8xsim firmware images.
 *
 * The simulated core loads SP and PC from the first two words of the table
 * (at the start of flash), exactly as a Cortex-M4 does at reset. Reset copies
 * .data, clears .bss, runs constructors and calls main(); main's return value
 * becomes the simulator's exit code. */
#include <stdint.h>
#include <stdlib.h>
#include "mxc.h"

extern uint32_t __stack_top[];
extern uint32_t __data_load[], __data_start[], __data_end[];
extern uint32_t __bss_start[], __bss_end[];
extern int main(void);
extern void __libc_init_array(void);

void Reset_Handler(void);

/* Linked without the toolchain's crt files: __libc_init_array calls these. */
void _init(void) {}
void _fini(void) {}

/* Any exception without a handler: tell the simulator, which reports it with
 * the number of the exception it was delivering. */
void Default_Handler(void)
{
    SIMCTL->fault = 1;
    for (;;) {
    }
}

void Reset_Handler(void)
{
    for (uint32_t *src = __data_load, *dst = __data_start; dst < __data_end;) *dst++ = *src++;
    for (uint32_t *dst = __bss_start; dst < __bss_end;) *dst++ = 0;
    __libc_init_array();
    exit(main());
}

/* Entries 2..MXC_IRQ_COUNT-1 all point to Default_Handler until the firmware
 * installs its own with MXC_NVIC_SetVector (CNN_IRQn is entry 16 + the device's CNN interrupt). */
#define DEFAULT_8 \
    (uint32_t) Default_Handler, (uint32_t) Default_Handler, (uint32_t) Default_Handler, \
    (uint32_t) Default_Handler, (uint32_t) Default_Handler, (uint32_t) Default_Handler, \
    (uint32_t) Default_Handler, (uint32_t) Default_Handler

__attribute__((section(".isr_vector"), used))
const uint32_t vector_table[MXC_IRQ_COUNT] = {
    (uint32_t) __stack_top, (uint32_t) Reset_Handler,
    (uint32_t) Default_Handler, (uint32_t) Default_Handler, (uint32_t) Default_Handler,
    (uint32_t) Default_Handler, (uint32_t) Default_Handler, (uint32_t) Default_Handler,
    DEFAULT_8, DEFAULT_8, DEFAULT_8, DEFAULT_8, DEFAULT_8, DEFAULT_8, DEFAULT_8,
    DEFAULT_8, DEFAULT_8, DEFAULT_8, DEFAULT_8, DEFAULT_8, DEFAULT_8, DEFAULT_8,
};
