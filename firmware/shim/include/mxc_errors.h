/* "mxc_errors.h": the MSDK error codes (E_NO_ERROR ...). Generated code and
 * SDK-style sources include it by name; the shim declares everything in mxc.h. */
#ifndef AI8XSIM_MXC_ERRORS_H
#define AI8XSIM_MXC_ERRORS_H
#include "mxc.h"
#endif
