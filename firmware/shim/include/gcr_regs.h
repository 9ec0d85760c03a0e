/* Global control registers (GCR) of the MAX78000 and MAX78002 (same layout): register layout and the
 * clock fields generated firmware programs. */
#ifndef AI8XSIM_GCR_REGS_H
#define AI8XSIM_GCR_REGS_H

#include <stdint.h>
#include "device_map.h"

typedef struct {
    volatile uint32_t sysctrl;     /* 0x00 */
    volatile uint32_t rst0;        /* 0x04 */
    volatile uint32_t clkctrl;     /* 0x08 */
    volatile uint32_t pm;          /* 0x0C */
    volatile uint32_t ipll_ctrl;   /* 0x10 */
    uint32_t rsv_0x14;
    volatile uint32_t pclkdiv;     /* 0x18 */
    uint32_t rsv_0x1c_0x23[2];
    volatile uint32_t pclkdis0;    /* 0x24 */
    volatile uint32_t memctrl;     /* 0x28 */
    volatile uint32_t memz;        /* 0x2C */
    uint32_t rsv_0x30_0x3f[4];
    volatile uint32_t sysst;       /* 0x40 */
    volatile uint32_t rst1;        /* 0x44 */
    volatile uint32_t pclkdis1;    /* 0x48 */
} mxc_gcr_regs_t;

#define MXC_GCR ((mxc_gcr_regs_t *) MXC_BASE_GCR)

/* PCLKDIV: CNN clock divider (bits 16:14) and source (bits 18:17). */
#define MXC_F_GCR_PCLKDIV_CNNCLKDIV_POS 14
#define MXC_F_GCR_PCLKDIV_CNNCLKDIV ((uint32_t) (0x7UL << MXC_F_GCR_PCLKDIV_CNNCLKDIV_POS))
#define MXC_S_GCR_PCLKDIV_CNNCLKDIV_DIV2 ((uint32_t) (0x0UL << MXC_F_GCR_PCLKDIV_CNNCLKDIV_POS))
#define MXC_S_GCR_PCLKDIV_CNNCLKDIV_DIV4 ((uint32_t) (0x1UL << MXC_F_GCR_PCLKDIV_CNNCLKDIV_POS))
#define MXC_S_GCR_PCLKDIV_CNNCLKDIV_DIV8 ((uint32_t) (0x2UL << MXC_F_GCR_PCLKDIV_CNNCLKDIV_POS))
#define MXC_S_GCR_PCLKDIV_CNNCLKDIV_DIV16 ((uint32_t) (0x3UL << MXC_F_GCR_PCLKDIV_CNNCLKDIV_POS))
#define MXC_S_GCR_PCLKDIV_CNNCLKDIV_DIV1 ((uint32_t) (0x4UL << MXC_F_GCR_PCLKDIV_CNNCLKDIV_POS))

#define MXC_F_GCR_PCLKDIV_CNNCLKSEL_POS 17
#define MXC_F_GCR_PCLKDIV_CNNCLKSEL ((uint32_t) (0x3UL << MXC_F_GCR_PCLKDIV_CNNCLKSEL_POS))
#define MXC_S_GCR_PCLKDIV_CNNCLKSEL_PCLK ((uint32_t) (0x0UL << MXC_F_GCR_PCLKDIV_CNNCLKSEL_POS))
#define MXC_S_GCR_PCLKDIV_CNNCLKSEL_ISO ((uint32_t) (0x1UL << MXC_F_GCR_PCLKDIV_CNNCLKSEL_POS))
#define MXC_S_GCR_PCLKDIV_CNNCLKSEL_IPLL ((uint32_t) (0x3UL << MXC_F_GCR_PCLKDIV_CNNCLKSEL_POS))

/* IPLL_CTRL (MAX78002): enable the PLL; RDY reads 1 once it is locked. */
#define MXC_F_GCR_IPLL_CTRL_EN_POS 0
#define MXC_F_GCR_IPLL_CTRL_EN ((uint32_t) (0x1UL << MXC_F_GCR_IPLL_CTRL_EN_POS))
#define MXC_F_GCR_IPLL_CTRL_RDY_POS 1
#define MXC_F_GCR_IPLL_CTRL_RDY ((uint32_t) (0x1UL << MXC_F_GCR_IPLL_CTRL_RDY_POS))

/* PCLKDIS0: a set bit gates the peripheral's clock off. */
#define MXC_F_GCR_PCLKDIS0_CNN_POS 25
#define MXC_F_GCR_PCLKDIS0_CNN ((uint32_t) (0x1UL << MXC_F_GCR_PCLKDIS0_CNN_POS))

#endif
