/* General control function registers (GCFR) of the MAX78000: power, memory
 * mask, isolation and reset of the CNN domains (one bit per quadrant). */
#ifndef AI8XSIM_GCFR_REGS_H
#define AI8XSIM_GCFR_REGS_H

#include <stdint.h>
#include "device_map.h"

typedef struct {
    volatile uint32_t reg0;   /* 0x00 power enable */
    volatile uint32_t reg1;   /* 0x04 memory mask (RAM power) */
    volatile uint32_t reg2;   /* 0x08 isolation */
    volatile uint32_t reg3;   /* 0x0C reset */
} mxc_gcfr_regs_t;

#define MXC_GCFR ((mxc_gcfr_regs_t *) MXC_BASE_GCFR)

#endif
