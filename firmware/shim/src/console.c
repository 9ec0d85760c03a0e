/* newlib system calls: stdout/stderr go to the virtual console, exit() ends
 * the simulation with its status, the heap grows from the end of .bss. */
#include <errno.h>
#include <stdint.h>
#include <sys/stat.h>
#include "simctl.h"

int _write(int fd, const char *buf, int len)
{
    if (fd != 1 && fd != 2) {
        errno = EBADF;
        return -1;
    }
    for (int i = 0; i < len; i++) SIMCTL->console = (uint8_t) buf[i];
    return len;
}

int _read(int fd, char *buf, int len) { (void) fd; (void) buf; (void) len; return 0; }
int _close(int fd) { (void) fd; return -1; }
int _lseek(int fd, int off, int whence) { (void) fd; (void) off; (void) whence; return 0; }
int _isatty(int fd) { return fd <= 2; }
int _fstat(int fd, struct stat *st) { (void) fd; st->st_mode = S_IFCHR; return 0; }
int _getpid(void) { return 1; }
int _kill(int pid, int sig) { (void) pid; (void) sig; errno = EINVAL; return -1; }

void _exit(int status)
{
    SIMCTL->exit = (uint32_t) status;
    for (;;) {
    }
}

extern char __heap_start[];
extern char __heap_end[];
static char *heap_top = __heap_start;

void *_sbrk(int incr)
{
    if (heap_top + incr > __heap_end) {
        errno = ENOMEM;
        return (void *) -1;
    }
    char *prev = heap_top;
    heap_top += incr;
    return prev;
}
