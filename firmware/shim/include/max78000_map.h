/* MAX78000 memory map and interrupt numbers used by generated CNN firmware.
 * Addresses and IRQ positions are the device's (Analog Devices MSDK device
 * headers); only what the shim needs is declared. */
#ifndef AI8XSIM_MAX78000_MAP_H
#define AI8XSIM_MAX78000_MAP_H

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

/* Device interrupts. The two cores number them differently (MSDK max78000.h):
 * the Cortex-M4 as NVIC inputs (vector table entry = IRQn + 16), the RISC-V
 * core as entries of its jump table at the boot address (entry = IRQn). */
#ifndef __riscv
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
    TMR0_IRQn = 5,
    TMR1_IRQn = 6,
    TMR2_IRQn = 7,
    TMR3_IRQn = 8,
    GPIO0_IRQn = 24,
    GPIO1_IRQn = 25,
    RISCV_IRQn = 79,
    CNN_FIFO_IRQn = 100,
    CNN_IRQn = 101,
    LPCMP_IRQn = 103,
    MXC_IRQ_EXT_COUNT = 104
} IRQn_Type;
#else
typedef enum {
    TMR0_IRQn = 8,
    TMR1_IRQn = 9,
    TMR2_IRQn = 10,
    TMR3_IRQn = 11,
    GPIO0_IRQn = 25,
    GPIO1_IRQn = 26,
    CNN_FIFO_IRQn = 56,
    CNN_IRQn = 57,
    MXC_IRQ_EXT_COUNT = 61
} IRQn_Type;
#endif

#define MXC_IRQ_COUNT (MXC_IRQ_EXT_COUNT + 16)

#endif
