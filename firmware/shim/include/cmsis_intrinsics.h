/* CMSIS-Core compiler macros and Cortex-M4 intrinsics (GCC), as generated
 * firmware and SDK-style code spell them. WFI/WFE go to the simulation-control
 * device instead of the instruction (see the comment at __WFI). */
#ifndef AI8XSIM_CMSIS_INTRINSICS_H
#define AI8XSIM_CMSIS_INTRINSICS_H

#include <stdint.h>
#include "simctl.h"

#ifndef __ASM
#define __ASM __asm
#endif
#ifndef __INLINE
#define __INLINE inline
#endif
#ifndef __STATIC_INLINE
#define __STATIC_INLINE static inline
#endif
#ifndef __STATIC_FORCEINLINE
#define __STATIC_FORCEINLINE __attribute__((always_inline)) static inline
#endif
#ifndef __NO_RETURN
#define __NO_RETURN __attribute__((__noreturn__))
#endif
#ifndef __USED
#define __USED __attribute__((used))
#endif
#ifndef __WEAK
#define __WEAK __attribute__((weak))
#endif
#ifndef __PACKED
#define __PACKED __attribute__((packed, aligned(1)))
#endif
#ifndef __ALIGNED
#define __ALIGNED(x) __attribute__((aligned(x)))
#endif
#ifndef __RESTRICT
#define __RESTRICT __restrict
#endif
#ifndef __COMPILER_BARRIER
#define __COMPILER_BARRIER() __ASM volatile("" ::: "memory")
#endif

#ifndef __riscv
/* The simulated core does not model WFI/WFE itself: sleeping is a request to
 * the simulation-control device, which lets SystemC time run until an
 * interrupt is pending instead of spinning through instructions. Whether the
 * sleep is deep (SCB->SCR.SLEEPDEEP) is the SCR's business: the wake-up is the
 * same on the virtual board. */
static inline void __WFI(void) { SIMCTL->sleep = 1; }
static inline void __WFE(void) { SIMCTL->sleep = 1; }
/* Sets the event register: the next WFE of this single core would return at
 * once, and nothing here waits on events from other cores, so only the
 * instruction is kept. */
static inline void __SEV(void) { __ASM volatile("sev"); }
static inline void __NOP(void) { __ASM volatile("nop"); }
static inline void __DSB(void) { __ASM volatile("dsb 0xF" ::: "memory"); }
static inline void __ISB(void) { __ASM volatile("isb 0xF" ::: "memory"); }
static inline void __DMB(void) { __ASM volatile("dmb 0xF" ::: "memory"); }
static inline void __enable_irq(void) { __ASM volatile("cpsie i" ::: "memory"); }
static inline void __disable_irq(void) { __ASM volatile("cpsid i" ::: "memory"); }
static inline void __enable_fault_irq(void) { __ASM volatile("cpsie f" ::: "memory"); }
static inline void __disable_fault_irq(void) { __ASM volatile("cpsid f" ::: "memory"); }
#define __BKPT(value) __ASM volatile("bkpt " #value)

static inline uint32_t __get_PRIMASK(void)
{
    uint32_t r;
    __ASM volatile("mrs %0, primask" : "=r"(r)::"memory");
    return r;
}
static inline void __set_PRIMASK(uint32_t v) { __ASM volatile("msr primask, %0" ::"r"(v) : "memory"); }
static inline uint32_t __get_FAULTMASK(void)
{
    uint32_t r;
    __ASM volatile("mrs %0, faultmask" : "=r"(r)::"memory");
    return r;
}
static inline void __set_FAULTMASK(uint32_t v) { __ASM volatile("msr faultmask, %0" ::"r"(v) : "memory"); }
static inline uint32_t __get_BASEPRI(void)
{
    uint32_t r;
    __ASM volatile("mrs %0, basepri" : "=r"(r));
    return r;
}
static inline void __set_BASEPRI(uint32_t v) { __ASM volatile("msr basepri, %0" ::"r"(v) : "memory"); }
static inline void __set_BASEPRI_MAX(uint32_t v) { __ASM volatile("msr basepri_max, %0" ::"r"(v) : "memory"); }
static inline uint32_t __get_CONTROL(void)
{
    uint32_t r;
    __ASM volatile("mrs %0, control" : "=r"(r));
    return r;
}
static inline void __set_CONTROL(uint32_t v) { __ASM volatile("msr control, %0" ::"r"(v) : "memory"); }
static inline uint32_t __get_IPSR(void)
{
    uint32_t r;
    __ASM volatile("mrs %0, ipsr" : "=r"(r));
    return r;
}
static inline uint32_t __get_APSR(void)
{
    uint32_t r;
    __ASM volatile("mrs %0, apsr" : "=r"(r));
    return r;
}
static inline uint32_t __get_xPSR(void)
{
    uint32_t r;
    __ASM volatile("mrs %0, xpsr" : "=r"(r));
    return r;
}
static inline uint32_t __get_MSP(void)
{
    uint32_t r;
    __ASM volatile("mrs %0, msp" : "=r"(r));
    return r;
}
static inline void __set_MSP(uint32_t v) { __ASM volatile("msr msp, %0" ::"r"(v) :); }
static inline uint32_t __get_PSP(void)
{
    uint32_t r;
    __ASM volatile("mrs %0, psp" : "=r"(r));
    return r;
}
static inline void __set_PSP(uint32_t v) { __ASM volatile("msr psp, %0" ::"r"(v) :); }
/* No FPU state is used (soft float), so FPSCR reads as 0 and writes are dropped. */
static inline uint32_t __get_FPSCR(void) { return 0U; }
static inline void __set_FPSCR(uint32_t v) { (void) v; }

static inline uint32_t __REV(uint32_t v) { return __builtin_bswap32(v); }
static inline uint32_t __REV16(uint32_t v)
{
    uint32_t r;
    __ASM("rev16 %0, %1" : "=r"(r) : "r"(v));
    return r;
}
static inline int16_t __REVSH(int16_t v) { return (int16_t) __builtin_bswap16((uint16_t) v); }
static inline uint32_t __ROR(uint32_t v, uint32_t n)
{
    n &= 31U;
    return n == 0U ? v : (v >> n) | (v << (32U - n));
}
static inline uint32_t __RBIT(uint32_t v)
{
    uint32_t r;
    __ASM("rbit %0, %1" : "=r"(r) : "r"(v));
    return r;
}
static inline uint8_t __CLZ(uint32_t v) { return v == 0U ? 32U : (uint8_t) __builtin_clz(v); }
#define __SSAT(value, bits) __extension__({ int32_t r_, v_ = (value); __ASM("ssat %0, %1, %2" : "=r"(r_) : "I"(bits), "r"(v_)); r_; })
#define __USAT(value, bits) __extension__({ uint32_t r_; int32_t v_ = (value); __ASM("usat %0, %1, %2" : "=r"(r_) : "I"(bits), "r"(v_)); r_; })
#endif

#endif
