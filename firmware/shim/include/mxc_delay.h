/* "mxc_delay.h": MXC_Delay and SEC/MSEC/USEC. Generated code and
 * SDK-style sources include it by name; the shim declares everything in mxc.h. */
#ifndef AI8XSIM_MXC_DELAY_H
#define AI8XSIM_MXC_DELAY_H
#include "mxc.h"
#endif
