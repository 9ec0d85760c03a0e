/* "core_cm4.h": the CMSIS-Core Cortex-M4 header. Generated code and
 * SDK-style sources include it by name; the shim declares everything in mxc.h. */
#ifndef AI8XSIM_CORE_CM4_H
#define AI8XSIM_CORE_CM4_H
#include "mxc.h"
#endif
