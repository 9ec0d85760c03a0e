/* assert() for RISC-V firmware (the MAX78002's generated cnn.c and main_riscv.c
 * include <assert.h>). A failed assertion prints where it failed and ends the
 * run with exit code 1, as newlib's abort() does on the Arm (firmware/riscv/src/libc.c).
 * With NDEBUG the checks go away, as the C standard says. */
#ifndef AI8XSIM_RV_ASSERT_H
#define AI8XSIM_RV_ASSERT_H

void ai8xsim_assert_failed(const char* expr, const char* file, int line) __attribute__((noreturn));

#endif

#undef assert
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
#define assert(e) ((e) ? (void)0 : ai8xsim_assert_failed(#e, __FILE__, __LINE__))
#endif
