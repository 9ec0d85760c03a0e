/* The string functions RISC-V firmware of the generator uses (ai8xsim has no
 * C library for the RISC-V core; firmware/riscv/src/libc.c implements these). */
#ifndef AI8XSIM_RV_STRING_H
#define AI8XSIM_RV_STRING_H

#include <stddef.h>

void* memcpy(void* dst, const void* src, size_t n);
void* memmove(void* dst, const void* src, size_t n);
void* memset(void* dst, int c, size_t n);
int memcmp(const void* a, const void* b, size_t n);
size_t strlen(const char* s);

#endif
