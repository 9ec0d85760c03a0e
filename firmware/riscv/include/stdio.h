/* printf and friends for RISC-V firmware, writing to the simulator's console
 * (firmware/riscv/src/libc.c; conversions d i u x X c s p % with flags 0 and
 * -, a width and the l/ll/z length modifiers). */
#ifndef AI8XSIM_RV_STDIO_H
#define AI8XSIM_RV_STDIO_H

#include <stdarg.h>
#include <stddef.h>

int printf(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
int vprintf(const char* fmt, va_list ap);
int putchar(int c);
int puts(const char* s);

#endif
