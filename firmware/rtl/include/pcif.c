/* The RTL testbench's camera-interface helpers ("pcif.c"), which the camera
 * programs include into their own source after pcif_defines_af2.h (and after
 * defining NUM_DATA_WORDS, which these helpers do not need). The including
 * program brings MXC_GCR: global_functions.h in an RTL folder, the MSDK's
 * mxc.h in an embedded-C one. An embedded-C folder includes this file into
 * both cnn.c and main.c, so the helpers are local to each (static). */
#include "pcif_defines_af2.h"

/* Runs the interface's peripheral clock (a set PCLKDIS1 bit gates it off). */
static inline void enable_pcif_clock(void)
{
    MXC_GCR->pclkdis1 &= ~(1UL << AI8XSIM_PCLKDIS1_PCIF_POS);
}

/* Hands the camera pins to the interface. The virtual board wires the camera
 * waveform to the interface directly: there is no pin multiplexer to set. */
static inline void set_pcif_gpio_altf(void)
{
}
