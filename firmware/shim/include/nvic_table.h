/* Run-time interrupt handlers, as the MSDK provides them: the vector table is
 * copied to RAM on first use and VTOR pointed at the copy. */
#ifndef AI8XSIM_NVIC_TABLE_H
#define AI8XSIM_NVIC_TABLE_H

#ifndef __riscv
#include <stdint.h>
#include "device_map.h"

/* Installs `handler` for `irqn` in the RAM vector table and enables the interrupt. */
void MXC_NVIC_SetVector(IRQn_Type irqn, void (*handler)(void));
/* The handler address the active vector table holds for `irqn`. */
uint32_t MXC_NVIC_GetVector(IRQn_Type irqn);
/* Copies the vector table to RAM and points VTOR at it (done by SetVector too). */
void NVIC_SetRAM(void);

/* Generator releases up to 2023 call NVIC_SetVector(CNN_IRQn, CNN_ISR): the
 * MSDK, on CMSIS 3, defines it with a function pointer and the meaning of
 * MXC_NVIC_SetVector (CMSIS 5's variant takes a uint32_t and writes the table
 * wherever VTOR points, which would be flash). */
static inline void NVIC_SetVector(IRQn_Type irqn, void (*handler)(void)) { MXC_NVIC_SetVector(irqn, handler); }
static inline uint32_t NVIC_GetVector(IRQn_Type irqn) { return MXC_NVIC_GetVector(irqn); }
#endif

#endif
