/* Memory map and interrupt numbers used by generated CNN firmware, for the
 * MAX78000 and the MAX78002 (Analog Devices MSDK device headers: the peripheral
 * addresses below are the same on both). The interrupt numbers differ per
 * device and per core: the firmware builder passes them from the device
 * description (configs/<device>.yaml) as AI8XSIM_CNN_IRQ, AI8XSIM_CNN_FIFO_IRQ
 * and AI8XSIM_IRQ_COUNT (cpu.interrupts for the Arm image, riscv.* for the
 * RISC-V image) and, for the Arm, AI8XSIM_RISCV_IRQ (soc.arm_irq_from_riscv).
 * Only what the shim needs is declared. */
#ifndef AI8XSIM_DEVICE_MAP_H
#define AI8XSIM_DEVICE_MAP_H

#if !defined(AI8XSIM_CNN_IRQ) || !defined(AI8XSIM_CNN_FIFO_IRQ) || !defined(AI8XSIM_IRQ_COUNT)
#error "build with -DAI8XSIM_CNN_IRQ, -DAI8XSIM_CNN_FIFO_IRQ, -DAI8XSIM_IRQ_COUNT from the device description"
#endif

#define MXC_FLASH_MEM_BASE 0x10000000UL
#define MXC_SRAM_MEM_BASE  0x20000000UL

#define MXC_BASE_GCR   0x40000000UL
#define MXC_BASE_GCFR  0x40005800UL
#define MXC_BASE_GPIO0 0x40008000UL
#define MXC_BASE_GPIO1 0x40009000UL
#define MXC_BASE_GPIO2 0x40080400UL
#define MXC_BASE_TMR0  0x40010000UL
#define MXC_BASE_TMR1  0x40011000UL
#define MXC_BASE_TMR2  0x40012000UL
#define MXC_BASE_TMR3  0x40013000UL
#define MXC_BASE_ICC0  0x4002A000UL
#define MXC_BASE_ICC1  0x4002A800UL  /* the RISC-V core's cache */
#define MXC_BASE_FCR   0x40000800UL
#define MXC_BASE_PWRSEQ 0x40006800UL
#define MXC_BASE_SEMA  0x4003E000UL

/* Device interrupts. The two cores number them differently (MSDK device
 * headers): the Cortex-M4 as NVIC inputs (vector table entry = IRQn + 16), the
 * RISC-V core as entries of its jump table at the boot address (entry = IRQn). */
#ifndef __riscv
#ifndef AI8XSIM_RISCV_IRQ
#error "build with -DAI8XSIM_RISCV_IRQ from the device description (soc.arm_irq_from_riscv)"
#endif
typedef enum {
    NonMaskableInt_IRQn = -14,
    HardFault_IRQn = -13,
    MemoryManagement_IRQn = -12,
    BusFault_IRQn = -11,
    UsageFault_IRQn = -10,
    SVCall_IRQn = -5,
    DebugMonitor_IRQn = -4,
    PendSV_IRQn = -2,
    SysTick_IRQn = -1,
    RISCV_IRQn = AI8XSIM_RISCV_IRQ,
    CNN_FIFO_IRQn = AI8XSIM_CNN_FIFO_IRQ,
    CNN_IRQn = AI8XSIM_CNN_IRQ,
    MXC_IRQ_EXT_COUNT = AI8XSIM_IRQ_COUNT /* the device's external interrupts (cpu.interrupts.count) */
} IRQn_Type;
#else
/* The timer and GPIO lines of the RISC-V core have the same numbers on both
 * devices (MSDK max78000.h and max78002.h, __riscv part). */
typedef enum {
    TMR0_IRQn = 8,
    TMR1_IRQn = 9,
    TMR2_IRQn = 10,
    TMR3_IRQn = 11,
    GPIO0_IRQn = 25,
    GPIO1_IRQn = 26,
    CNN_FIFO_IRQn = AI8XSIM_CNN_FIFO_IRQ,
    CNN_IRQn = AI8XSIM_CNN_IRQ,
    MXC_IRQ_EXT_COUNT = AI8XSIM_IRQ_COUNT /* the core's interrupt lines (riscv.irq_count) */
} IRQn_Type;
#endif

#define MXC_IRQ_COUNT (MXC_IRQ_EXT_COUNT + 16)

#endif
