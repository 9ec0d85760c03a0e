/* ai8xsim board-support shim: everything generated MAX78000 CNN firmware
 * expects from "mxc.h" (the vendor SDK umbrella header), re-implemented for
 * the virtual board. docs/firmware-shim.md lists what is provided. */
#ifndef AI8XSIM_MXC_H
#define AI8XSIM_MXC_H

#include <stdint.h>
#include "device_map.h"
#ifdef __riscv
#include "riscv_core.h"
#else
#include "cortex_m4_core.h"
#endif
#include "gcr_regs.h"
#include "gcfr_regs.h"
#include "pwrseq_regs.h"
#include "gpio.h"
#include "mxc_sys.h"
#include "board.h"
#include "simctl.h"

#endif
