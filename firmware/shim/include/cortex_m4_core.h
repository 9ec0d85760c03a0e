/* The part of the Cortex-M4 core peripherals (NVIC, SCB) and intrinsics that
 * generated firmware and this shim use. Register addresses are the
 * architecture's (ARMv7-M System Control Space). */
#ifndef AI8XSIM_CORTEX_M4_CORE_H
#define AI8XSIM_CORTEX_M4_CORE_H

#include <stdint.h>
#include "device_map.h"
#include "simctl.h"

typedef struct {
    volatile uint32_t ISER[8];   /* 0xE000E100 set-enable */
    uint32_t rsv0[24];
    volatile uint32_t ICER[8];   /* 0xE000E180 clear-enable */
    uint32_t rsv1[24];
    volatile uint32_t ISPR[8];   /* 0xE000E200 set-pending */
    uint32_t rsv2[24];
    volatile uint32_t ICPR[8];   /* 0xE000E280 clear-pending */
} NVIC_Type;

typedef struct {
    volatile uint32_t CPUID;     /* 0xE000ED00 */
    volatile uint32_t ICSR;      /* 0xE000ED04 */
    volatile uint32_t VTOR;      /* 0xE000ED08 */
    volatile uint32_t AIRCR;     /* 0xE000ED0C */
    volatile uint32_t SCR;       /* 0xE000ED10 */
    volatile uint32_t CCR;       /* 0xE000ED14 */
} SCB_Type;

#define NVIC ((NVIC_Type *) 0xE000E100UL)
#define SCB ((SCB_Type *) 0xE000ED00UL)

static inline void NVIC_EnableIRQ(IRQn_Type irqn)
{
    if ((int32_t) irqn >= 0) NVIC->ISER[(uint32_t) irqn >> 5] = 1UL << ((uint32_t) irqn & 31);
}

static inline void NVIC_DisableIRQ(IRQn_Type irqn)
{
    if ((int32_t) irqn >= 0) NVIC->ICER[(uint32_t) irqn >> 5] = 1UL << ((uint32_t) irqn & 31);
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

static inline void NVIC_SetVector(IRQn_Type irqn, uint32_t vector)
{
    ((volatile uint32_t *) SCB->VTOR)[(int32_t) irqn + 16] = vector;
}

static inline uint32_t NVIC_GetVector(IRQn_Type irqn)
{
    return ((volatile uint32_t *) SCB->VTOR)[(int32_t) irqn + 16];
}

/* The simulated core does not model WFI/WFE itself: sleeping is a request to
 * the simulation-control device, which lets SystemC time run until an
 * interrupt is pending instead of spinning through instructions. */
static inline void __WFI(void) { SIMCTL->sleep = 1; }
static inline void __WFE(void) { SIMCTL->sleep = 1; }
static inline void __NOP(void) { __asm volatile("nop"); }
static inline void __DSB(void) { __asm volatile("dsb 0xF" ::: "memory"); }
static inline void __ISB(void) { __asm volatile("isb 0xF" ::: "memory"); }
static inline void __enable_irq(void) { __asm volatile("cpsie i" ::: "memory"); }
static inline void __disable_irq(void) { __asm volatile("cpsid i" ::: "memory"); }

#endif
