/* "mxc_device.h": the device header of the MSDK (register maps, IRQn_Type, CMSIS core). Generated code and
 * SDK-style sources include it by name; the shim declares everything in mxc.h. */
#ifndef AI8XSIM_MXC_DEVICE_H
#define AI8XSIM_MXC_DEVICE_H
#include "mxc.h"
#endif
