/* Parallel camera interface (PCIF) registers, under the MSDK's header name
 * "cameraif_regs.h" (MAX78000 and MAX78002 put the block at the same address).
 * Layout and CTRL fields: the MSDK's cameraif_regs.h; INT_FL as the RTL
 * programs test it (bit 7: FIFO not empty). The device behind it is the
 * camera interface model (docs/rtl-flow.md, "Camera"). */
#ifndef AI8XSIM_CAMERAIF_REGS_H
#define AI8XSIM_CAMERAIF_REGS_H

#include <stdint.h>

#define MXC_BASE_CAMERAIF 0x4000E000UL

typedef struct {
    volatile uint32_t ver;             /* 0x00 */
    volatile uint32_t fifo_size;       /* 0x04 */
    volatile uint32_t ctrl;            /* 0x08 */
    volatile uint32_t int_en;          /* 0x0C */
    volatile uint32_t int_fl;          /* 0x10 */
    volatile uint32_t ds_timing_codes; /* 0x14 */
    uint32_t rsv_0x18_0x2f[6];
    union {
        volatile uint32_t fifo_data; /* 0x30 */
        volatile uint32_t dma_data;  /* 0x30 pre-production name */
    };
} mxc_cameraif_regs_t;

#define MXC_CAMERAIF0 ((mxc_cameraif_regs_t *) MXC_BASE_CAMERAIF)
#define MXC_PCIF MXC_CAMERAIF0

/* CTRL */
#define MXC_F_CAMERAIF_CTRL_READ_MODE_POS 0
#define MXC_F_CAMERAIF_CTRL_READ_MODE ((uint32_t) (0x3UL << MXC_F_CAMERAIF_CTRL_READ_MODE_POS))
#define MXC_S_CAMERAIF_CTRL_READ_MODE_DIS ((uint32_t) (0x0UL << MXC_F_CAMERAIF_CTRL_READ_MODE_POS))
#define MXC_S_CAMERAIF_CTRL_READ_MODE_SINGLE_IMG ((uint32_t) (0x1UL << MXC_F_CAMERAIF_CTRL_READ_MODE_POS))
#define MXC_S_CAMERAIF_CTRL_READ_MODE_CONTINUOUS ((uint32_t) (0x2UL << MXC_F_CAMERAIF_CTRL_READ_MODE_POS))
#define MXC_F_CAMERAIF_CTRL_DATA_WIDTH_POS 2
#define MXC_F_CAMERAIF_CTRL_DATA_WIDTH ((uint32_t) (0x3UL << MXC_F_CAMERAIF_CTRL_DATA_WIDTH_POS))
#define MXC_S_CAMERAIF_CTRL_DATA_WIDTH_8BIT ((uint32_t) (0x0UL << MXC_F_CAMERAIF_CTRL_DATA_WIDTH_POS))
#define MXC_S_CAMERAIF_CTRL_DATA_WIDTH_10BIT ((uint32_t) (0x1UL << MXC_F_CAMERAIF_CTRL_DATA_WIDTH_POS))
#define MXC_S_CAMERAIF_CTRL_DATA_WIDTH_12BIT ((uint32_t) (0x2UL << MXC_F_CAMERAIF_CTRL_DATA_WIDTH_POS))
#define MXC_F_CAMERAIF_CTRL_DS_TIMING_EN_POS 4
#define MXC_F_CAMERAIF_CTRL_DS_TIMING_EN ((uint32_t) (0x1UL << MXC_F_CAMERAIF_CTRL_DS_TIMING_EN_POS))
#define MXC_S_CAMERAIF_CTRL_DS_TIMING_EN_DIS ((uint32_t) (0x0UL << MXC_F_CAMERAIF_CTRL_DS_TIMING_EN_POS))
#define MXC_S_CAMERAIF_CTRL_DS_TIMING_EN_EN ((uint32_t) (0x1UL << MXC_F_CAMERAIF_CTRL_DS_TIMING_EN_POS))
#define MXC_F_CAMERAIF_CTRL_FIFO_THRSH_POS 5
#define MXC_F_CAMERAIF_CTRL_FIFO_THRSH ((uint32_t) (0x1FUL << MXC_F_CAMERAIF_CTRL_FIFO_THRSH_POS))
#define MXC_F_CAMERAIF_CTRL_RX_DMA_POS 16
#define MXC_F_CAMERAIF_CTRL_RX_DMA ((uint32_t) (0x1UL << MXC_F_CAMERAIF_CTRL_RX_DMA_POS))
#define MXC_F_CAMERAIF_CTRL_RX_DMA_THRSH_POS 17
#define MXC_F_CAMERAIF_CTRL_RX_DMA_THRSH ((uint32_t) (0xFUL << MXC_F_CAMERAIF_CTRL_RX_DMA_THRSH_POS))
#define MXC_F_CAMERAIF_CTRL_THREE_CH_EN_POS 30
#define MXC_F_CAMERAIF_CTRL_THREE_CH_EN ((uint32_t) (0x1UL << MXC_F_CAMERAIF_CTRL_THREE_CH_EN_POS))
#define MXC_F_CAMERAIF_CTRL_PCIF_SYS_POS 31
#define MXC_F_CAMERAIF_CTRL_PCIF_SYS ((uint32_t) (0x1UL << MXC_F_CAMERAIF_CTRL_PCIF_SYS_POS))
#define MXC_S_CAMERAIF_CTRL_PCIF_SYS_EN_DIS ((uint32_t) (0x0UL << MXC_F_CAMERAIF_CTRL_PCIF_SYS_POS))
#define MXC_S_CAMERAIF_CTRL_PCIF_SYS_EN_EN ((uint32_t) (0x1UL << MXC_F_CAMERAIF_CTRL_PCIF_SYS_POS))

#endif
