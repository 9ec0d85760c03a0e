/* The few stdlib functions RISC-V firmware may call (firmware/riscv/src/libc.c). */
#ifndef AI8XSIM_RV_STDLIB_H
#define AI8XSIM_RV_STDLIB_H

#include <stddef.h>

int abs(int v);
void exit(int status) __attribute__((noreturn));

#endif
