/* System services of the MAX78000 SDK that generated firmware calls: clocks,
 * cache, low power, delays, the software stopwatch and the RAM vector table. */
#ifndef AI8XSIM_MXC_SYS_H
#define AI8XSIM_MXC_SYS_H

#include <stdint.h>
#include "device_map.h"
#include "gcr_regs.h"

#define E_NO_ERROR 0
#define E_BAD_PARAM -3

/* Clock selection. */
typedef enum { MXC_SYS_CLOCK_ISO, MXC_SYS_CLOCK_IPO, MXC_SYS_CLOCK_IBRO, MXC_SYS_CLOCK_ERTCO,
               MXC_SYS_CLOCK_INRO, MXC_SYS_CLOCK_EXTCLK } mxc_sys_system_clock_t;
int MXC_SYS_Clock_Select(mxc_sys_system_clock_t clock);

/* Peripheral clocks, numbered as bits of PCLKDIS0 (0..31) and PCLKDIS1 (32..63). */
typedef enum {
    MXC_SYS_PERIPH_CLOCK_GPIO0 = 0,
    MXC_SYS_PERIPH_CLOCK_GPIO1 = 1,
    MXC_SYS_PERIPH_CLOCK_TMR0 = 15,
    MXC_SYS_PERIPH_CLOCK_TMR1 = 16,
    MXC_SYS_PERIPH_CLOCK_TMR2 = 17,
    MXC_SYS_PERIPH_CLOCK_TMR3 = 18,
    MXC_SYS_PERIPH_CLOCK_CNN = MXC_F_GCR_PCLKDIS0_CNN_POS,
    MXC_SYS_PERIPH_CLOCK_SMPHR = 32 + 9,  /* PCLKDIS1.SMPHR: semaphore block */
    MXC_SYS_PERIPH_CLOCK_CPU1 = 32 + 31   /* PCLKDIS1.CPU1: running it releases the RISC-V core */
} mxc_sys_periph_clock_t;
void MXC_SYS_ClockEnable(mxc_sys_periph_clock_t clock);
void MXC_SYS_ClockDisable(mxc_sys_periph_clock_t clock);

extern uint32_t SystemCoreClock;
void SystemCoreClockUpdate(void);

/* Instruction cache controller (no functional effect in the simulation). */
typedef struct { volatile uint32_t info; } mxc_icc_regs_t;
#define MXC_ICC0 ((mxc_icc_regs_t *) MXC_BASE_ICC0)
#define MXC_ICC1 ((mxc_icc_regs_t *) MXC_BASE_ICC1)
void MXC_ICC_Enable(mxc_icc_regs_t *icc);
void MXC_ICC_Disable(mxc_icc_regs_t *icc);

/* Low power: sleep until the next interrupt. Low-power mode (the Arm's
 * --deepsleep wait for the RISC-V core) sleeps the same way here. */
void MXC_LP_EnterSleepMode(void);
void MXC_LP_EnterLowPowerMode(void);
void MXC_LP_ClearWakeStatus(void);
int MXC_SYS_ClockSourceEnable(mxc_sys_system_clock_t clock);

/* Busy-wait delays, expressed in microseconds. */
#define MXC_DELAY_SEC(s) (((uint32_t) s) * 1000000UL)
#define MXC_DELAY_MSEC(ms) ((uint32_t) (ms * 1000UL))
#define MXC_DELAY_USEC(us) ((uint32_t) us)
#define SEC(s) MXC_DELAY_SEC(s)
#define MSEC(ms) MXC_DELAY_MSEC(ms)
#define USEC(us) MXC_DELAY_USEC(us)
int MXC_Delay(uint32_t us);

/* Timers as software stopwatches: Stop returns the microseconds since Start. */
typedef struct { volatile uint32_t cnt; } mxc_tmr_regs_t;
#define MXC_TMR0 ((mxc_tmr_regs_t *) MXC_BASE_TMR0)
#define MXC_TMR1 ((mxc_tmr_regs_t *) MXC_BASE_TMR1)
#define MXC_TMR2 ((mxc_tmr_regs_t *) MXC_BASE_TMR2)
#define MXC_TMR3 ((mxc_tmr_regs_t *) MXC_BASE_TMR3)
void MXC_TMR_SW_Start(mxc_tmr_regs_t *tmr);
unsigned int MXC_TMR_SW_Stop(mxc_tmr_regs_t *tmr);
int MXC_TMR_Delay(mxc_tmr_regs_t *tmr, uint32_t us);

#ifndef __riscv
#include "nvic_table.h"
#else
/* RISC-V JTAG set-up of --riscv-debug firmware: nothing to do on the virtual board. */
static inline void Debug_Init(void) {}
#endif

#endif
