/* Memory map and interrupt numbers used by generated CNN firmware, for the
 * MAX78000 and the MAX78002 (Analog Devices MSDK device headers: the peripheral
 * addresses below are the same on both). The interrupt numbers differ per
 * device: the firmware builder passes them from the device description
 * (configs/<device>.yaml, cpu.interrupts) as AI8XSIM_CNN_IRQ,
 * AI8XSIM_CNN_FIFO_IRQ and AI8XSIM_IRQ_COUNT. Only what the shim needs is declared. */
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

/* Device interrupts, numbered as NVIC inputs (vector table entry = IRQn + 16). */
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
    CNN_FIFO_IRQn = AI8XSIM_CNN_FIFO_IRQ,
    CNN_IRQn = AI8XSIM_CNN_IRQ,
    MXC_IRQ_EXT_COUNT = AI8XSIM_IRQ_COUNT /* the device's external interrupts (cpu.interrupts.count) */
} IRQn_Type;

#define MXC_IRQ_COUNT (MXC_IRQ_EXT_COUNT + 16)

#endif
