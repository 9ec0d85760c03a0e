/* assert() for RISC-V firmware (the MAX78002 RTL programs include <assert.h>):
 * a failed assertion prints where and stops the core, as the C library would. */
#ifndef AI8XSIM_RV_ASSERT_H
#define AI8XSIM_RV_ASSERT_H

#include <stdio.h>
#include <stdlib.h>

#ifdef NDEBUG
#define assert(expr) ((void)0)
#else
#define assert(expr) ((expr) ? (void)0 : (printf("%s:%d: assertion failed: %s\n", __FILE__, __LINE__, #expr), exit(1)))
#endif

#endif
