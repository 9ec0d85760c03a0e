/* The part of the MAX78000 RISC-V core's interrupt controller and intrinsics
 * that generated firmware and this shim use. The core-local INTR and EVENT
 * blocks (enable, pending, set/clear pending) are at the addresses of the
 * MSDK's core_rv32.h; the global enable is mstatus.MIE. */
#ifndef AI8XSIM_RISCV_CORE_H
#define AI8XSIM_RISCV_CORE_H

#include <stdint.h>
#include "device_map.h"

typedef struct {
    volatile uint32_t irq0_enable;         /* 0x00 interrupts 0..31 */
    volatile uint32_t irq0_pending;        /* 0x04 */
    volatile uint32_t irq0_set_pending;    /* 0x08 */
    volatile uint32_t irq0_clear_pending;  /* 0x0C */
    volatile uint32_t irq1_enable;         /* 0x10 interrupts 32..63 */
    volatile uint32_t irq1_pending;        /* 0x14 */
    volatile uint32_t irq1_set_pending;    /* 0x18 */
    volatile uint32_t irq1_clear_pending;  /* 0x1C */
} mxc_intr_regs_t;

typedef struct {
    volatile uint32_t event0_enable;         /* 0x20 events wake WFI without an interrupt */
    volatile uint32_t event0_pending;        /* 0x24 */
    volatile uint32_t event0_set_pending;    /* 0x28 */
    volatile uint32_t event0_clear_pending;  /* 0x2C */
    volatile uint32_t event1_enable;         /* 0x30 */
    volatile uint32_t event1_pending;        /* 0x34 */
    volatile uint32_t event1_set_pending;    /* 0x38 */
    volatile uint32_t event1_clear_pending;  /* 0x3C */
} mxc_event_regs_t;

#define MXC_BASE_INTR 0xE5070000UL
#define MXC_BASE_EVENT 0xE5070020UL
#define MXC_INTR ((mxc_intr_regs_t *) MXC_BASE_INTR)
#define MXC_EVENT ((mxc_event_regs_t *) MXC_BASE_EVENT)

/* One bit of interrupt `n` in a pair of 32-bit registers (n < 32: the first). */
#define AI8XSIM_RV_REG(first, n) (*((n) < 32 ? &(first) : &(first) + 4))
#define AI8XSIM_RV_BIT(n) (1UL << ((uint32_t) (n) & 31))

static inline void NVIC_EnableIRQ(IRQn_Type n)
{
    AI8XSIM_RV_REG(MXC_INTR->irq0_enable, n) |= AI8XSIM_RV_BIT(n);
    AI8XSIM_RV_REG(MXC_EVENT->event0_enable, n) |= AI8XSIM_RV_BIT(n);
}

static inline void NVIC_DisableIRQ(IRQn_Type n)
{
    AI8XSIM_RV_REG(MXC_INTR->irq0_enable, n) &= ~AI8XSIM_RV_BIT(n);
    AI8XSIM_RV_REG(MXC_EVENT->event0_enable, n) &= ~AI8XSIM_RV_BIT(n);
}

static inline void NVIC_EnableEVENT(IRQn_Type n) { AI8XSIM_RV_REG(MXC_EVENT->event0_enable, n) |= AI8XSIM_RV_BIT(n); }
static inline void NVIC_DisableEVENT(IRQn_Type n) { AI8XSIM_RV_REG(MXC_EVENT->event0_enable, n) &= ~AI8XSIM_RV_BIT(n); }

static inline void NVIC_ClearPendingIRQ(IRQn_Type n)
{
    AI8XSIM_RV_REG(MXC_INTR->irq0_clear_pending, n) = AI8XSIM_RV_BIT(n);
    AI8XSIM_RV_REG(MXC_EVENT->event0_clear_pending, n) = AI8XSIM_RV_BIT(n);
}

static inline void NVIC_ClearPendingEVENT(IRQn_Type n)
{
    AI8XSIM_RV_REG(MXC_EVENT->event0_clear_pending, n) = AI8XSIM_RV_BIT(n);
}

static inline uint32_t NVIC_GetPendingIRQ(IRQn_Type n)
{
    return (AI8XSIM_RV_REG(MXC_INTR->irq0_pending, n) & AI8XSIM_RV_BIT(n)) != 0;
}

/* WFI is the core's own instruction: the simulator sleeps the core on it. */
static inline void __WFI(void) { __asm volatile("wfi"); }
static inline void __NOP(void) { __asm volatile("nop"); }
static inline void __enable_irq(void) { __asm volatile("csrsi mstatus, 8" ::: "memory"); }
static inline void __disable_irq(void) { __asm volatile("csrci mstatus, 8" ::: "memory"); }

#endif
