/* Clocks, cache, low power, delays and stopwatch timers of the shim. Real
 * registers are written where the simulator models them (GCR clock gating);
 * timing services go to the simulation-control device so that waiting costs
 * simulated time, not executed instructions. */
#include "mxc.h"

/* Generated main() selects the 100 MHz IPO before anything else. */
uint32_t SystemCoreClock = 100000000UL;

int MXC_SYS_Clock_Select(mxc_sys_system_clock_t clock)
{
    /* Only the IPO (100 MHz) is modelled: the core clock of the virtual board. */
    return clock == MXC_SYS_CLOCK_IPO ? E_NO_ERROR : E_BAD_PARAM;
}

void SystemCoreClockUpdate(void)
{
    SystemCoreClock = 100000000UL;
}

void MXC_SYS_ClockEnable(mxc_sys_periph_clock_t clock)
{
    uint32_t bit = (uint32_t) clock;
    if (bit < 32)
        MXC_GCR->pclkdis0 &= ~(1UL << bit);
    else
        MXC_GCR->pclkdis1 &= ~(1UL << (bit - 32));
}

void MXC_SYS_ClockDisable(mxc_sys_periph_clock_t clock)
{
    uint32_t bit = (uint32_t) clock;
    if (bit < 32)
        MXC_GCR->pclkdis0 |= 1UL << bit;
    else
        MXC_GCR->pclkdis1 |= 1UL << (bit - 32);
}

/* The cache only changes speed on silicon; the virtual core has no cache model. */
void MXC_ICC_Enable(mxc_icc_regs_t *icc) { (void) icc; }
void MXC_ICC_Disable(mxc_icc_regs_t *icc) { (void) icc; }

/* __WFI asks the simulation-control device on the Arm and is the core's own
 * instruction on the RISC-V core; either way the core sleeps until an interrupt. */
void MXC_LP_EnterSleepMode(void)
{
    __WFI();
}

void MXC_LP_EnterLowPowerMode(void)
{
    __WFI();
}

/* Clears the wake-up flags (write 1 to clear) before deep sleep. */
void MXC_LP_ClearWakeStatus(void)
{
    MXC_PWRSEQ->lpwkst0 = 0xFFFFFFFF;
    MXC_PWRSEQ->lpwkst1 = 0xFFFFFFFF;
    MXC_PWRSEQ->lppwst = 0xFFFFFFFF;
}

/* Oscillators are always running on the virtual board. */
int MXC_SYS_ClockSourceEnable(mxc_sys_system_clock_t clock)
{
    (void) clock;
    return E_NO_ERROR;
}

/* Timer-based delay of older SDKs: the same simulated wait as MXC_Delay. */
int MXC_TMR_Delay(mxc_tmr_regs_t *tmr, uint32_t us)
{
    (void) tmr;
    return MXC_Delay(us);
}

int MXC_Delay(uint32_t us)
{
    SIMCTL->delay_us = us;
    return E_NO_ERROR;
}

/* Start time of each of the four stopwatch timers, in simulated microseconds. */
static uint64_t stopwatch_start_us[4];

static int timer_index(mxc_tmr_regs_t *tmr)
{
    uint32_t base = (uint32_t) tmr;
    if (base < MXC_BASE_TMR0 || base > MXC_BASE_TMR3 || (base - MXC_BASE_TMR0) % 0x1000 != 0)
        return -1;
    return (int) ((base - MXC_BASE_TMR0) / 0x1000);
}

void MXC_TMR_SW_Start(mxc_tmr_regs_t *tmr)
{
    int i = timer_index(tmr);
    if (i >= 0) stopwatch_start_us[i] = simctl_time_us();
}

unsigned int MXC_TMR_SW_Stop(mxc_tmr_regs_t *tmr)
{
    int i = timer_index(tmr);
    if (i < 0) return 0;
    return (unsigned int) (simctl_time_us() - stopwatch_start_us[i]);
}
