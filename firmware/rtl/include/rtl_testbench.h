/* The RTL testbench's control block `sim` on the virtual board: the registers
 * through which the programs of an RTL-simulation folder talk to the testbench
 * (firmware/host/rtl_testbench_control.h is the model; docs/rtl-flow.md).
 *
 * Not part of the chip: like the simulation-control device (simctl.h) it sits
 * in an unused corner of the peripheral window, right after it. */
#ifndef AI8XSIM_RTL_TESTBENCH_H
#define AI8XSIM_RTL_TESTBENCH_H

#include <stdint.h>

#define AI8XSIM_RTL_TB_BASE 0x4F001000UL

typedef struct {
    volatile uint32_t trig;     /* 0x00 W: any write pulses trig[0]: run_test.sv starts the camera stream */
    volatile uint32_t pass;     /* 0x04 W: the Arm reached pass(); the value is the caller's address */
    volatile uint32_t fail;     /* 0x08 W: the Arm reached fail(); the value is the caller's address */
    volatile uint32_t pass_rv;  /* 0x0C W: the same from the RISC-V core */
    volatile uint32_t fail_rv;  /* 0x10 W: the same from the RISC-V core */
    volatile uint32_t id;       /* 0x14 R: 0x52544C54 ("RTLT") */
} tb_sim_regs_t;

/* The testbench's name for the block: `sim->trig = 0;`. A constant pointer in
 * every translation unit rather than a macro, so that nothing else called sim
 * in a program is rewritten. */
static volatile tb_sim_regs_t *const sim __attribute__((unused)) = (volatile tb_sim_regs_t *) AI8XSIM_RTL_TB_BASE;

#endif
