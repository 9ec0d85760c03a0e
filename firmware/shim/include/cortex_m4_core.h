/* The CMSIS-Core (Cortex-M4) surface that generated firmware of any generator
 * release since 2021 may use: the NVIC, SCB, SCnSCB and SysTick register
 * blocks with their field masks, the NVIC/SysTick access functions and the
 * compiler intrinsics. Register addresses and bit positions are the ARMv7-M
 * architecture's (System Control Space at 0xE000E000); names follow CMSIS so
 * code written against the vendor SDK compiles unchanged. */
#ifndef AI8XSIM_CORTEX_M4_CORE_H
#define AI8XSIM_CORTEX_M4_CORE_H

#include <stdint.h>
#include "device_map.h"
#include "simctl.h"
#include "cmsis_intrinsics.h"

/* CMSIS access qualifiers. */
#define __I volatile const
#define __O volatile
#define __IO volatile
#define __IM volatile const
#define __OM volatile
#define __IOM volatile

#define __CM4_REV 0x0001U       /* r0p1, as CPUID reports */
#define __MPU_PRESENT 1U
#define __NVIC_PRIO_BITS 3U     /* MAX78000: 8 priority levels */
#define __Vendor_SysTickConfig 0U
#define __FPU_PRESENT 1U

#define SCS_BASE 0xE000E000UL
#define SCnSCB_BASE (SCS_BASE + 0x0000UL)
#define SysTick_BASE (SCS_BASE + 0x0010UL)
#define NVIC_BASE (SCS_BASE + 0x0100UL)
#define SCB_BASE (SCS_BASE + 0x0D00UL)

typedef struct {
    __IOM uint32_t ISER[8];      /* 0x000 set-enable */
    uint32_t RESERVED0[24];
    __IOM uint32_t ICER[8];      /* 0x080 clear-enable */
    uint32_t RESERVED1[24];
    __IOM uint32_t ISPR[8];      /* 0x100 set-pending */
    uint32_t RESERVED2[24];
    __IOM uint32_t ICPR[8];      /* 0x180 clear-pending */
    uint32_t RESERVED3[24];
    __IOM uint32_t IABR[8];      /* 0x200 active */
    uint32_t RESERVED4[56];
    __IOM uint8_t IP[240];       /* 0x300 priority, one byte per interrupt */
    uint32_t RESERVED5[644];
    __OM uint32_t STIR;          /* 0xE00 software trigger */
} NVIC_Type;

typedef struct {
    __IM uint32_t CPUID;         /* 0x00 */
    __IOM uint32_t ICSR;         /* 0x04 */
    __IOM uint32_t VTOR;         /* 0x08 */
    __IOM uint32_t AIRCR;        /* 0x0C */
    __IOM uint32_t SCR;          /* 0x10 */
    __IOM uint32_t CCR;          /* 0x14 */
    __IOM uint8_t SHP[12];       /* 0x18 system handler priorities 4..15 */
    __IOM uint32_t SHCSR;        /* 0x24 */
    __IOM uint32_t CFSR;         /* 0x28 */
    __IOM uint32_t HFSR;         /* 0x2C */
    __IOM uint32_t DFSR;         /* 0x30 */
    __IOM uint32_t MMFAR;        /* 0x34 */
    __IOM uint32_t BFAR;         /* 0x38 */
    __IOM uint32_t AFSR;         /* 0x3C */
    __IM uint32_t PFR[2];        /* 0x40 */
    __IM uint32_t DFR;           /* 0x48 */
    __IM uint32_t ADR;           /* 0x4C */
    __IM uint32_t MMFR[4];       /* 0x50 */
    __IM uint32_t ISAR[5];       /* 0x60 */
    uint32_t RESERVED0[5];
    __IOM uint32_t CPACR;        /* 0x88 */
} SCB_Type;

typedef struct {
    uint32_t RESERVED0[1];
    __IM uint32_t ICTR;          /* 0x004 */
    __IOM uint32_t ACTLR;        /* 0x008 */
} SCnSCB_Type;

typedef struct {
    __IOM uint32_t CTRL;         /* 0x00 */
    __IOM uint32_t LOAD;         /* 0x04 */
    __IOM uint32_t VAL;          /* 0x08 */
    __IM uint32_t CALIB;         /* 0x0C */
} SysTick_Type;

#define SCnSCB ((SCnSCB_Type *) SCnSCB_BASE)
#define SysTick ((SysTick_Type *) SysTick_BASE)
#define NVIC ((NVIC_Type *) NVIC_BASE)
#define SCB ((SCB_Type *) SCB_BASE)

#include "cortex_m4_fields.h"

/* ---- NVIC ---------------------------------------------------------------- */

static inline void NVIC_EnableIRQ(IRQn_Type irqn)
{
    if ((int32_t) irqn >= 0) NVIC->ISER[(uint32_t) irqn >> 5] = 1UL << ((uint32_t) irqn & 31);
}

static inline void NVIC_DisableIRQ(IRQn_Type irqn)
{
    if ((int32_t) irqn >= 0) {
        NVIC->ICER[(uint32_t) irqn >> 5] = 1UL << ((uint32_t) irqn & 31);
        __DSB();
        __ISB();
    }
}

static inline uint32_t NVIC_GetEnableIRQ(IRQn_Type irqn)
{
    if ((int32_t) irqn < 0) return 0;
    return (NVIC->ISER[(uint32_t) irqn >> 5] >> ((uint32_t) irqn & 31)) & 1UL;
}

static inline void NVIC_SetPendingIRQ(IRQn_Type irqn)
{
    if ((int32_t) irqn >= 0) NVIC->ISPR[(uint32_t) irqn >> 5] = 1UL << ((uint32_t) irqn & 31);
}

static inline void NVIC_ClearPendingIRQ(IRQn_Type irqn)
{
    if ((int32_t) irqn >= 0) NVIC->ICPR[(uint32_t) irqn >> 5] = 1UL << ((uint32_t) irqn & 31);
}

static inline uint32_t NVIC_GetPendingIRQ(IRQn_Type irqn)
{
    if ((int32_t) irqn < 0) return 0;
    return (NVIC->ISPR[(uint32_t) irqn >> 5] >> ((uint32_t) irqn & 31)) & 1UL;
}

static inline uint32_t NVIC_GetActive(IRQn_Type irqn)
{
    if ((int32_t) irqn < 0) return 0;
    return (NVIC->IABR[(uint32_t) irqn >> 5] >> ((uint32_t) irqn & 31)) & 1UL;
}

/* Priorities keep the top __NVIC_PRIO_BITS of each byte, as the hardware does.
 * Device interrupts live in NVIC->IP, system handlers 4..15 in SCB->SHP. */
static inline void NVIC_SetPriority(IRQn_Type irqn, uint32_t priority)
{
    uint8_t value = (uint8_t) ((priority << (8U - __NVIC_PRIO_BITS)) & 0xFFUL);
    if ((int32_t) irqn >= 0)
        NVIC->IP[(uint32_t) irqn] = value;
    else
        SCB->SHP[((uint32_t) irqn & 0xFUL) - 4UL] = value;
}

static inline uint32_t NVIC_GetPriority(IRQn_Type irqn)
{
    uint32_t value = (int32_t) irqn >= 0 ? NVIC->IP[(uint32_t) irqn] : SCB->SHP[((uint32_t) irqn & 0xFUL) - 4UL];
    return value >> (8U - __NVIC_PRIO_BITS);
}

static inline void NVIC_SetPriorityGrouping(uint32_t group)
{
    uint32_t aircr = SCB->AIRCR & ~(SCB_AIRCR_VECTKEY_Msk | SCB_AIRCR_PRIGROUP_Msk);
    SCB->AIRCR = aircr | (0x05FAUL << SCB_AIRCR_VECTKEY_Pos) | ((group & 7UL) << SCB_AIRCR_PRIGROUP_Pos);
}

static inline uint32_t NVIC_GetPriorityGrouping(void)
{
    return (SCB->AIRCR & SCB_AIRCR_PRIGROUP_Msk) >> SCB_AIRCR_PRIGROUP_Pos;
}

/* Encodes/decodes a preempt priority and subpriority for a grouping. */
static inline uint32_t NVIC_EncodePriority(uint32_t group, uint32_t preempt, uint32_t sub)
{
    uint32_t g = group & 7UL;
    uint32_t preempt_bits = (7UL - g) > __NVIC_PRIO_BITS ? __NVIC_PRIO_BITS : 7UL - g;
    uint32_t sub_bits = (g + __NVIC_PRIO_BITS) < 7UL ? 0UL : g - 7UL + __NVIC_PRIO_BITS;
    return ((preempt & ((1UL << preempt_bits) - 1UL)) << sub_bits) | (sub & ((1UL << sub_bits) - 1UL));
}

static inline void NVIC_DecodePriority(uint32_t priority, uint32_t group, uint32_t *preempt, uint32_t *sub)
{
    uint32_t g = group & 7UL;
    uint32_t preempt_bits = (7UL - g) > __NVIC_PRIO_BITS ? __NVIC_PRIO_BITS : 7UL - g;
    uint32_t sub_bits = (g + __NVIC_PRIO_BITS) < 7UL ? 0UL : g - 7UL + __NVIC_PRIO_BITS;
    *preempt = (priority >> sub_bits) & ((1UL << preempt_bits) - 1UL);
    *sub = priority & ((1UL << sub_bits) - 1UL);
}

/* NVIC_SetVector/NVIC_GetVector are the MSDK's (function-pointer handler,
 * RAM vector table), not CMSIS 5's: see nvic_table.h. */

/* AIRCR.SYSRESETREQ: the virtual board ends the run (docs/firmware-shim.md). */
static inline void NVIC_SystemReset(void)
{
    __DSB();
    SCB->AIRCR = (0x05FAUL << SCB_AIRCR_VECTKEY_Pos) | (SCB->AIRCR & SCB_AIRCR_PRIGROUP_Msk) |
                 SCB_AIRCR_SYSRESETREQ_Msk;
    __DSB();
    for (;;) __NOP();
}

/* ---- SysTick ------------------------------------------------------------- */

/* Starts SysTick with a period of `ticks` core clocks and its interrupt
 * enabled; 1 if `ticks` does not fit the 24-bit reload register. */
static inline uint32_t SysTick_Config(uint32_t ticks)
{
    if (ticks == 0UL || ticks - 1UL > SysTick_LOAD_RELOAD_Msk) return 1UL;
    SysTick->LOAD = ticks - 1UL;
    NVIC_SetPriority(SysTick_IRQn, (1UL << __NVIC_PRIO_BITS) - 1UL);
    SysTick->VAL = 0UL;
    SysTick->CTRL = SysTick_CTRL_CLKSOURCE_Msk | SysTick_CTRL_TICKINT_Msk | SysTick_CTRL_ENABLE_Msk;
    return 0UL;
}

/* ---- FPU ----------------------------------------------------------------- */

static inline uint32_t SCB_GetFPUType(void) { return 1UL; /* single precision */ }

#endif
