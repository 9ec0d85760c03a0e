/* The C library subset RISC-V firmware needs: memory and string helpers (the
 * compiler also calls memcpy/memset itself) and a small printf to the virtual
 * console. Chosen over a full C library because generated main_riscv.c uses
 * only printf and memcpy; see docs/riscv.md. */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "simctl.h"

void *memcpy(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    while (n--) *d++ = *s++;
    return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (d < s) {
        while (n--) *d++ = *s++;
    } else {
        while (n--) d[n] = s[n];
    }
    return dst;
}

void *memset(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    while (n--) *d++ = (unsigned char) c;
    return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *x = a, *y = b;
    for (; n; n--, x++, y++)
        if (*x != *y) return *x < *y ? -1 : 1;
    return 0;
}

size_t strlen(const char *s)
{
    size_t n = 0;
    while (s[n]) n++;
    return n;
}

int abs(int v) { return v < 0 ? -v : v; }

/* The RISC-V core cannot end the simulation (the Arm decides): stop for good. */
void exit(int status)
{
    (void) status;
    for (;;) __asm volatile("wfi");
}

int putchar(int c)
{
    SIMCTL->console = (uint8_t) c;
    return c;
}

int puts(const char *s)
{
    while (*s) putchar(*s++);
    putchar('\n');
    return 0;
}

/* Writes `v` in base `base` with at least `width` characters. */
static int put_number(unsigned long long v, unsigned base, int upper, int negative, int width, char pad, int left)
{
    char buf[24];
    int n = 0, written = 0;
    const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    do {
        buf[n++] = digits[v % base];
        v /= base;
    } while (v);
    int len = n + negative;
    if (negative && pad == '0') {
        putchar('-');
        written++;
        negative = 0;
    }
    if (!left)
        for (; width > len; width--, written++) putchar(pad);
    if (negative) {
        putchar('-');
        written++;
    }
    while (n) {
        putchar(buf[--n]);
        written++;
    }
    for (; width > len; width--, written++) putchar(' ');
    return written;
}

int vprintf(const char *fmt, va_list ap)
{
    int written = 0;
    for (; *fmt; fmt++) {
        if (*fmt != '%') {
            putchar(*fmt);
            written++;
            continue;
        }
        fmt++;
        char pad = ' ';
        int left = 0, width = 0, longs = 0;
        for (;; fmt++) {
            if (*fmt == '0') pad = '0';
            else if (*fmt == '-') left = 1;
            else break;
        }
        while (*fmt >= '0' && *fmt <= '9') width = width * 10 + (*fmt++ - '0');
        while (*fmt == 'l' || *fmt == 'z') {
            longs += *fmt == 'l' ? 1 : 0;
            fmt++;
        }
        switch (*fmt) {
        case 'd':
        case 'i': {
            long long v = longs >= 2 ? va_arg(ap, long long) : longs ? va_arg(ap, long) : va_arg(ap, int);
            written += put_number(v < 0 ? 0ULL - (unsigned long long) v : (unsigned long long) v, 10, 0, v < 0,
                                  width, pad, left);
            break;
        }
        case 'u':
        case 'x':
        case 'X': {
            unsigned long long v = longs >= 2 ? va_arg(ap, unsigned long long)
                                   : longs   ? va_arg(ap, unsigned long)
                                             : va_arg(ap, unsigned int);
            written += put_number(v, *fmt == 'u' ? 10 : 16, *fmt == 'X', 0, width, pad, left);
            break;
        }
        case 'p':
            written += put_number((uintptr_t) va_arg(ap, void *), 16, 0, 0, 8, '0', 0);
            break;
        case 'c':
            putchar(va_arg(ap, int));
            written++;
            break;
        case 's': {
            const char *s = va_arg(ap, const char *);
            if (!s) s = "(null)";
            int len = (int) strlen(s);
            if (!left)
                for (; width > len; width--, written++) putchar(' ');
            while (*s) {
                putchar(*s++);
                written++;
            }
            for (; width > len; width--, written++) putchar(' ');
            break;
        }
        case '%':
            putchar('%');
            written++;
            break;
        case '\0':
            return written;
        default:  /* unknown conversion: show it as written */
            putchar('%');
            putchar(*fmt);
            written += 2;
        }
    }
    return written;
}

int printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vprintf(fmt, ap);
    va_end(ap);
    return n;
}

void ai8xsim_assert_failed(const char *expr, const char *file, int line)
{
    printf("Assertion failed: %s, file %s, line %d\n", expr, file, line);
    SIMCTL->exit = 1;
    for (;;) __asm volatile("wfi");
}
