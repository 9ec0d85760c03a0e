/* "mxc_assert.h" of the MSDK, which the MAX78002 RTL programs include by name:
 * MXC_ASSERT is checked only with MXC_ASSERT_ENABLE, as in the SDK. */
#ifndef AI8XSIM_RTL_MXC_ASSERT_H
#define AI8XSIM_RTL_MXC_ASSERT_H

void fail(void); /* global_functions.h */

#ifdef MXC_ASSERT_ENABLE
#define MXC_ASSERT(expr)      \
    do {                      \
        if (!(expr)) fail();  \
    } while (0)
#else
#define MXC_ASSERT(expr) ((void) 0)
#endif

#endif
