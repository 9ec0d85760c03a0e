/* The RTL testbench's camera-interface definitions ("pcif_defines_af2.h"): the
 * PCIF registers under both the pre-production names (MXC_CAMERAIF0->dma_data)
 * and the MSDK's (MXC_PCIF->fifo_data), and the helpers of pcif.c. The
 * testbench's own file is not public; docs/rtl-flow.md, "Camera". */
#ifndef AI8XSIM_RTL_PCIF_DEFINES_AF2_H
#define AI8XSIM_RTL_PCIF_DEFINES_AF2_H

#include "cameraif_regs.h"

/* PCLKDIS1 bit of the camera interface (a set bit gates its clock off). */
#define AI8XSIM_PCLKDIS1_PCIF_POS 18

/* pcif.c: run the interface's peripheral clock; hand its pins to it. */
void enable_pcif_clock(void);
void set_pcif_gpio_altf(void);

#endif
