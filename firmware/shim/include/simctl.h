/* Simulation-control device of ai8xsim (not part of the MAX78000).
 *
 * A few registers in an unused corner of the peripheral window through which
 * the board-support shim asks the simulator for services that real silicon
 * provides through a UART, a timer or a debugger. docs/firmware-shim.md
 * describes every register; firmware/host/sim_control.h is the model. */
#ifndef AI8XSIM_SIMCTL_H
#define AI8XSIM_SIMCTL_H

#include <stdint.h>

#define SIMCTL_BASE 0x4F000000UL

typedef struct {
    volatile uint32_t console;   /* 0x00 W: one character to the virtual console */
    volatile uint32_t exit;      /* 0x04 W: end the simulation with this exit code */
    volatile uint32_t delay_us;  /* 0x08 W: let this many microseconds pass without executing code */
    volatile uint32_t sleep;     /* 0x0C W: sleep until an interrupt is pending (WFI) */
    volatile uint32_t time_lo;   /* 0x10 R: simulated time in microseconds, low word (latches high word) */
    volatile uint32_t time_hi;   /* 0x14 R: high word latched by the last read of time_lo */
    volatile uint32_t leds;      /* 0x18 RW: board LED states, bit n = LED n on */
    volatile uint32_t fault;     /* 0x1C W: the firmware hit an exception it has no handler for */
    volatile uint32_t id;        /* 0x20 R: 0x53494D43 ("SIMC") */
    volatile uint32_t fault_rv;  /* 0x24 W: like fault, from the RISC-V core */
} simctl_regs_t;

#define SIMCTL ((simctl_regs_t *) SIMCTL_BASE)

/* Microseconds of simulated time since reset. */
static inline uint64_t simctl_time_us(void)
{
    uint32_t lo = SIMCTL->time_lo;
    return ((uint64_t) SIMCTL->time_hi << 32) | lo;
}

#endif
