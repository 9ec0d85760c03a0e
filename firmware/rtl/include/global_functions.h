/* The RTL testbench's environment, as the programs of the generator's --rtl and
 * --rtl-preload folders (test.c for the Arm, test_riscv.c for the RISC-V core)
 * include it: "global_functions.h". The vendor's own is not public; this one is
 * written for ai8xsim from register facts (docs/rtl-flow.md lists them).
 *
 * It brings the board-support shim (mxc.h: CMSIS core, NVIC table, MSDK system
 * services) and adds what the testbench gives on top:
 *   - pass(), fail() and the testbench control block `sim` (sim->trig starts
 *     the camera stream that run_test.sv feeds from input.csv);
 *   - icache_enable(), icache1_enable(), invalidate_icache1();
 *   - the register structs under the pre-production names the MAX78000 folders
 *     use (MXC_GCR->clkcn/pckdiv/perckcn/perckcn1, MXC_BBFC, MXC_NBBFC,
 *     MXC_SEMA->irqr0, MXC_PWRSEQ->lpwkst/lpwken) next to the production names
 *     the MAX78002 folders use (clkctrl, pclkdiv, ito_ctrl, MXC_GCFR, irq0):
 *     one layout, both spellings, as the silicon did not change between them. */
#ifndef AI8XSIM_RTL_GLOBAL_FUNCTIONS_H
#define AI8XSIM_RTL_GLOBAL_FUNCTIONS_H

#include <stdint.h>
#include "mxc.h"
#include "fcr_regs.h"
#include "sema_regs.h"
#include "rtl_testbench.h"

/* The test passed (the run ends when the Arm's program reaches it) / failed (the
 * run's verdict is fail whatever follows; the testbench names the caller). */
void pass(void);
void fail(void);

/* Instruction caches of the Arm (ICC0) and of the RISC-V core (ICC1): speed
 * only on silicon; the virtual cores have no cache model. */
void icache_enable(void);
void icache1_enable(void);
void invalidate_icache1(void);

/* ---- GCR: one layout, pre-production and production names ---- */
typedef struct {
    volatile uint32_t sysctrl;  /* 0x00 (scon) */
    volatile uint32_t rst0;     /* 0x04 (rstr0) */
    union {
        volatile uint32_t clkcn;    /* 0x08 pre-production name */
        volatile uint32_t clkctrl;  /* 0x08 */
    };
    volatile uint32_t pm;  /* 0x0C */
    union {
        volatile uint32_t ipll_ctrl; /* 0x10 MAX78002 PLL */
        volatile uint32_t ito_ctrl;  /* 0x10 the same PLL, as the testbench names it */
    };
    uint32_t rsv_0x14;
    union {
        volatile uint32_t pckdiv;   /* 0x18 pre-production name */
        volatile uint32_t pclkdiv;  /* 0x18 */
    };
    uint32_t rsv_0x1c_0x23[2];
    union {
        volatile uint32_t perckcn;   /* 0x24 pre-production name */
        volatile uint32_t pclkdis0;  /* 0x24 */
    };
    volatile uint32_t memctrl;  /* 0x28 */
    volatile uint32_t memz;     /* 0x2C */
    uint32_t rsv_0x30_0x3f[4];
    volatile uint32_t sysst;  /* 0x40 */
    volatile uint32_t rst1;   /* 0x44 */
    union {
        volatile uint32_t perckcn1;  /* 0x48 pre-production name */
        volatile uint32_t pclkdis1;  /* 0x48 */
    };
} tb_gcr_regs_t;
#undef MXC_GCR
#define MXC_GCR ((tb_gcr_regs_t *) MXC_BASE_GCR)

/* CLKCN / CLKCTRL: the 96 MHz oscillator (HIRC96M, later named IPO). */
#define MXC_F_GCR_CLKCN_CLKSEL_POS 9
#define MXC_F_GCR_CLKCN_CLKSEL ((uint32_t) (0x7UL << MXC_F_GCR_CLKCN_CLKSEL_POS))
#define MXC_S_GCR_CLKCN_CLKSEL_HIRC96 ((uint32_t) (0x4UL << MXC_F_GCR_CLKCN_CLKSEL_POS))
#define MXC_F_GCR_CLKCN_HIRC96M_EN ((uint32_t) (0x1UL << 19))
#define MXC_F_GCR_CLKCN_HIRC96M_RDY ((uint32_t) (0x1UL << 27))
#define MXC_F_GCR_CLKCTRL_SYSCLK_SEL MXC_F_GCR_CLKCN_CLKSEL
#define MXC_S_GCR_CLKCTRL_SYSCLK_SEL_IPO MXC_S_GCR_CLKCN_CLKSEL_HIRC96
#define MXC_F_GCR_CLKCTRL_IPO_EN MXC_F_GCR_CLKCN_HIRC96M_EN
#define MXC_F_GCR_CLKCTRL_IPO_RDY MXC_F_GCR_CLKCN_HIRC96M_RDY

/* ITO_CTRL: the MAX78002 PLL under the testbench's name (the MSDK's IPLL_CTRL;
 * the programs define the IPLL names from these, so these cannot refer back). */
#define MXC_F_GCR_ITO_CTRL_EN ((uint32_t) (0x1UL << 0))
#define MXC_F_GCR_ITO_CTRL_RDY ((uint32_t) (0x1UL << 1))
#define MXC_S_GCR_PCLKDIV_CNNCLKSEL_ITO ((uint32_t) (0x3UL << 17))

/* PERCKCN1 / PCLKDIS1: a set bit gates the clock off. */
#define MXC_F_GCR_PERCKCN1_SMPHRD ((uint32_t) (0x1UL << 9))
#define MXC_F_GCR_PERCKCN1_CPU1 ((uint32_t) (0x1UL << 31))

/* ---- BBFC (later GCFR): CNN power, memory mask, isolation, reset ---- */
#define MXC_BBFC MXC_GCFR

/* ---- NBBFC (later FCR): reg4 is the RISC-V boot address ---- */
typedef struct {
    volatile uint32_t reg0; /* 0x00 */
    volatile uint32_t reg1; /* 0x04 */
    volatile uint32_t reg2; /* 0x08 */
    volatile uint32_t reg3; /* 0x0C */
    volatile uint32_t reg4; /* 0x10 RISC-V boot address (FCR URVBOOTADDR) */
    volatile uint32_t reg5; /* 0x14 */
} tb_nbbfc_regs_t;
#define MXC_NBBFC ((tb_nbbfc_regs_t *) MXC_BASE_FCR)

/* ---- SEMA: the inter-core interrupt registers under both names ---- */
typedef struct {
    volatile uint32_t semaphores[8]; /* 0x00 */
    uint32_t rsv_0x20_0x3f[8];
    union {
        volatile uint32_t irqr0; /* 0x40 interrupt to the Cortex-M4, pre-production name */
        volatile uint32_t irq0;
    };
    volatile uint32_t mail0; /* 0x44 */
    union {
        volatile uint32_t irqr1; /* 0x48 interrupt to the RISC-V core */
        volatile uint32_t irq1;
    };
    volatile uint32_t mail1; /* 0x4C */
    uint32_t rsv_0x50_0xff[44];
    volatile uint32_t status; /* 0x100 */
} tb_sema_regs_t;
#undef MXC_SEMA
#define MXC_SEMA ((tb_sema_regs_t *) MXC_BASE_SEMA)
#define MXC_S_SEMA_IRQR_IRQEN_EN MXC_F_SEMA_IRQ0_EN
#define MXC_S_SEMA_IRQR_IRQEN_DIS ((uint32_t) 0)
#define MXC_S_SEMA_IRQR_IRQ_SET MXC_F_SEMA_IRQ0_CM4_IRQ
#define MXC_S_SEMA_IRQR_IRQ_CLR ((uint32_t) 0)

/* The Arm's interrupt from the RISC-V core (SEMA IRQ0), as the testbench names it. */
#ifndef __riscv
#define RV32_IRQn RISCV_IRQn
#endif

/* ---- PWRSEQ: lpwkst / lpwken are LPPWST / LPPWEN (0x30 / 0x34) ---- */
typedef struct {
    volatile uint32_t lpcn;    /* 0x00 */
    volatile uint32_t lpwkst0; /* 0x04 */
    volatile uint32_t lpwken0; /* 0x08 */
    volatile uint32_t lpwkst1; /* 0x0C */
    volatile uint32_t lpwken1; /* 0x10 */
    volatile uint32_t lpwkst2; /* 0x14 */
    volatile uint32_t lpwken2; /* 0x18 */
    volatile uint32_t lpwkst3; /* 0x1C */
    volatile uint32_t lpwken3; /* 0x20 */
    uint32_t rsv_0x24_0x2f[3];
    union {
        volatile uint32_t lpwkst; /* 0x30 peripheral wake-up status */
        volatile uint32_t lppwst;
    };
    union {
        volatile uint32_t lpwken; /* 0x34 peripheral wake-up enables (bit 10: CPU1) */
        volatile uint32_t lppwen;
    };
} tb_pwrseq_regs_t;
#undef MXC_PWRSEQ
#define MXC_PWRSEQ ((tb_pwrseq_regs_t *) MXC_BASE_PWRSEQ)

#endif
