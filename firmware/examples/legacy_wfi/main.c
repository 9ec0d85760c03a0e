/* Interrupt round trip written the way generator releases 2021-2023 wrote
 * main(): the handler is installed with the MSDK's NVIC_SetVector (function
 * pointer, RAM vector table), SLEEPDEEP is cleared in SCB->SCR and the CPU
 * waits with a bare __WFI(). Also checks that the CMSIS-Core register view
 * reads back what the architecture says. Each failed check exits with its own
 * code so the test names the broken name. Needs the test board's stand-in
 * device at 0x50100000 (interrupts 50 us after a 1 is written; 0 acknowledges). */
#include <stdint.h>
#include <stdio.h>
#include "mxc.h"
#include "mxc_device.h"
#include "mxc_delay.h"
#include "mxc_errors.h"
#include "core_cm4.h"
#include "nvic_table.h"

#define DEVICE_CTL ((volatile uint32_t *) 0x50100000)

static volatile int irq_count;

static void device_isr(void)
{
    *DEVICE_CTL = 0;
    irq_count++;
}

static int check_core_registers(void)
{
    /* CPUID: Arm (0x41), Cortex-M4 (part 0xC24). */
    if (((SCB->CPUID & SCB_CPUID_IMPLEMENTER_Msk) >> SCB_CPUID_IMPLEMENTER_Pos) != 0x41) return 10;
    if (((SCB->CPUID & SCB_CPUID_PARTNO_Msk) >> SCB_CPUID_PARTNO_Pos) != 0xC24) return 11;
    /* SLEEPDEEP reads back as written (the 2021-2022 --deepsleep main sets it). */
    SCB->SCR |= SCB_SCR_SLEEPDEEP_Msk;
    if ((SCB->SCR & SCB_SCR_SLEEPDEEP_Msk) == 0) return 12;
    SCB->SCR &= ~SCB_SCR_SLEEPDEEP_Msk; /* SLEEPDEEP=0, as generated main() does */
    if (SCB->SCR != 0) return 13;
    NVIC_SetPriorityGrouping(3);
    if (NVIC_GetPriorityGrouping() != 3) return 14;
    /* PRIMASK follows __disable_irq/__enable_irq. */
    __disable_irq();
    if (__get_PRIMASK() != 1) return 15;
    __enable_irq();
    if (__get_PRIMASK() != 0) return 16;
    return 0;
}

int main(void)
{
    int bad = check_core_registers();
    if (bad) {
        printf("core register check %d failed\n", bad);
        return bad;
    }

    NVIC_SetVector(CNN_IRQn, device_isr);
    if (NVIC_GetVector(CNN_IRQn) != (uint32_t) device_isr) return 20;
    if (!NVIC_GetEnableIRQ(CNN_IRQn)) return 21;
    if ((SCB->VTOR & SCB_VTOR_TBLOFF_Msk) < MXC_SRAM_MEM_BASE) return 22; /* table moved to RAM */

    MXC_TMR_SW_Start(MXC_TMR0);
    *DEVICE_CTL = 1;
    SCB->SCR &= ~SCB_SCR_SLEEPDEEP_Msk;
    while (irq_count == 0)
        __WFI();
    unsigned int us = MXC_TMR_SW_Stop(MXC_TMR0);
    MXC_TMR_Delay(MXC_TMR0, 10); /* older SDKs' delay: simulated time, no instructions */
    printf("interrupts: %d, after %u us\n", irq_count, us);
    return irq_count == 1 ? E_NO_ERROR : 1;
}
