/* Semaphore block of the MAX78000: eight semaphores and the two inter-core
 * interrupt registers (IRQ0 interrupts the Cortex-M4, IRQ1 the RISC-V core).
 * Layout and bits: MSDK sema_regs.h. */
#ifndef AI8XSIM_SEMA_REGS_H
#define AI8XSIM_SEMA_REGS_H

#include <stdint.h>
#include "device_map.h"

typedef struct {
    volatile uint32_t semaphores[8]; /* 0x00 read: test-and-set, returns the prior value; write 0: release */
    volatile const uint32_t rsv_0x20_0x3f[8];
    volatile uint32_t irq0;          /* 0x40 interrupt to the Cortex-M4 */
    volatile uint32_t mail0;         /* 0x44 */
    volatile uint32_t irq1;          /* 0x48 interrupt to the RISC-V core */
    volatile uint32_t mail1;         /* 0x4C */
    volatile const uint32_t rsv_0x50_0xff[44];
    volatile uint32_t status;        /* 0x100 bit n: semaphore n taken */
} mxc_sema_regs_t;

#define MXC_SEMA ((mxc_sema_regs_t *) MXC_BASE_SEMA)

#define MXC_F_SEMA_SEMAPHORES_SEMA ((uint32_t) 0x1UL)
#define MXC_F_SEMA_IRQ0_EN_POS 0
#define MXC_F_SEMA_IRQ0_EN ((uint32_t) (0x1UL << MXC_F_SEMA_IRQ0_EN_POS))
#define MXC_F_SEMA_IRQ0_CM4_IRQ_POS 16
#define MXC_F_SEMA_IRQ0_CM4_IRQ ((uint32_t) (0x1UL << MXC_F_SEMA_IRQ0_CM4_IRQ_POS))
#define MXC_F_SEMA_IRQ1_EN_POS 0
#define MXC_F_SEMA_IRQ1_EN ((uint32_t) (0x1UL << MXC_F_SEMA_IRQ1_EN_POS))
#define MXC_F_SEMA_IRQ1_RV32_IRQ_POS 16
#define MXC_F_SEMA_IRQ1_RV32_IRQ ((uint32_t) (0x1UL << MXC_F_SEMA_IRQ1_RV32_IRQ_POS))

#endif
