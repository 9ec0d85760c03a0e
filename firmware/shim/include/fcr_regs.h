/* Function control registers (FCR) of the MAX78000: only the RISC-V boot
 * address and control are modelled (the Arm sets the boot address before it
 * releases the RISC-V core). Offsets: MSDK fcr_regs.h. */
#ifndef AI8XSIM_FCR_REGS_H
#define AI8XSIM_FCR_REGS_H

#include <stdint.h>
#include "device_map.h"

typedef struct {
    volatile uint32_t fctrl0;       /* 0x00 */
    volatile uint32_t autocal0;     /* 0x04 */
    volatile uint32_t autocal1;     /* 0x08 */
    volatile uint32_t autocal2;     /* 0x0C */
    volatile uint32_t urvbootaddr;  /* 0x10 RISC-V boot address */
    volatile uint32_t urvctrl;      /* 0x14 RISC-V control */
} mxc_fcr_regs_t;

#define MXC_FCR ((mxc_fcr_regs_t *) MXC_BASE_FCR)

#endif
