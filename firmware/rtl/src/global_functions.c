/* pass(), fail() and the cache helpers of the RTL testbench's environment
 * (global_functions.h). pass() and fail() tell the testbench control block
 * which core reached them and from where, so that the run can name the check
 * that failed. */
#include "global_functions.h"

#ifdef __riscv
#define AI8XSIM_TB_PASS pass_rv
#define AI8XSIM_TB_FAIL fail_rv
#else
#define AI8XSIM_TB_PASS pass
#define AI8XSIM_TB_FAIL fail
#endif

/* noinline: the caller's address is the return address of a real call. */
__attribute__((noinline)) void pass(void)
{
    sim->AI8XSIM_TB_PASS = (uint32_t) (uintptr_t) __builtin_return_address(0);
}

__attribute__((noinline)) void fail(void)
{
    sim->AI8XSIM_TB_FAIL = (uint32_t) (uintptr_t) __builtin_return_address(0);
}

void icache_enable(void)
{
    MXC_ICC_Enable(MXC_ICC0);
}

void icache1_enable(void)
{
    MXC_ICC_Enable(MXC_ICC1);
}

void invalidate_icache1(void)
{
}
