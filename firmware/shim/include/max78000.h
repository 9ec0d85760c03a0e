/* "max78000.h": the MSDK device header. Generated code and
 * SDK-style sources include it by name; the shim declares everything in mxc.h. */
#ifndef AI8XSIM_MAX78000_H
#define AI8XSIM_MAX78000_H
#include "mxc.h"
#endif
