/* The RTL testbench's camera-interface helpers ("pcif.c"), which the camera
 * programs include into their own source after pcif_defines_af2.h (and after
 * defining NUM_DATA_WORDS, which these helpers do not need). */
#include "global_functions.h"
#include "pcif_defines_af2.h"

void enable_pcif_clock(void)
{
    MXC_GCR->pclkdis1 &= ~(1UL << AI8XSIM_PCLKDIS1_PCIF_POS);
}

/* The virtual board wires the camera waveform to the interface directly: there
 * is no pin multiplexer to set. */
void set_pcif_gpio_altf(void)
{
}
