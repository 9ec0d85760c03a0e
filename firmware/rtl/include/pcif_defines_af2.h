/* The RTL testbench's camera-interface definitions ("pcif_defines_af2.h"): the
 * PCIF registers under both the pre-production names (MXC_CAMERAIF0->dma_data)
 * and the MSDK's (MXC_PCIF->fifo_data), the testbench block `sim`, and the
 * helpers of pcif.c. The testbench's own file is not public; docs/camera.md. */
#ifndef AI8XSIM_RTL_PCIF_DEFINES_AF2_H
#define AI8XSIM_RTL_PCIF_DEFINES_AF2_H

#include "cameraif_regs.h"
/* `sim`: the programs start the camera stream with sim->trig, embedded-C ones too. */
#include "rtl_testbench.h"

/* PCLKDIS1 bit of the camera interface (a set bit gates its clock off). */
#define AI8XSIM_PCLKDIS1_PCIF_POS 18

/* pcif.c defines enable_pcif_clock() and set_pcif_gpio_altf(). */

#endif
