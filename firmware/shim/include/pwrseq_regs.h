/* Power sequencer of the MAX78000: the low-power peripheral wake-up enables
 * (LPPWEN) that generated --deepsleep firmware sets so the RISC-V core may
 * wake the sleeping Arm. Offsets and bits: MSDK pwrseq_regs.h. */
#ifndef AI8XSIM_PWRSEQ_REGS_H
#define AI8XSIM_PWRSEQ_REGS_H

#include <stdint.h>
#include "device_map.h"

typedef struct {
    volatile uint32_t lpcn;          /* 0x00 */
    volatile uint32_t lpwkst0;       /* 0x04 */
    volatile uint32_t lpwken0;       /* 0x08 */
    volatile uint32_t lpwkst1;       /* 0x0C */
    volatile uint32_t lpwken1;       /* 0x10 */
    volatile uint32_t lpwkst2;       /* 0x14 */
    volatile uint32_t lpwken2;       /* 0x18 */
    volatile uint32_t lpwkst3;       /* 0x1C */
    volatile uint32_t lpwken3;       /* 0x20 */
    volatile const uint32_t rsv_0x24_0x2f[3];
    volatile uint32_t lppwst;        /* 0x30 */
    volatile uint32_t lppwen;        /* 0x34 */
} mxc_pwrseq_regs_t;

#define MXC_PWRSEQ ((mxc_pwrseq_regs_t *) MXC_BASE_PWRSEQ)

#define MXC_F_PWRSEQ_LPPWEN_CPU1_POS 10
#define MXC_F_PWRSEQ_LPPWEN_CPU1 ((uint32_t) (0x1UL << MXC_F_PWRSEQ_LPPWEN_CPU1_POS))

#endif
