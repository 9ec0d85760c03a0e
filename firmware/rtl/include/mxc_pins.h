/* "mxc_pins.h" of the MSDK, included by name by the MAX78002 RTL programs;
 * nothing of it is used by them. */
#ifndef AI8XSIM_RTL_MXC_PINS_H
#define AI8XSIM_RTL_MXC_PINS_H
#endif
