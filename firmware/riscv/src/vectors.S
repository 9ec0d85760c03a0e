/* Jump table of the RISC-V core at its boot address (FCR URVBOOTADDR), laid
 * out as the MSDK's startup_riscv_max78000.S: entry 0 is reset, entry n the
 * handler of interrupt n (the simulator jumps to boot address + 4 n). Entries
 * are uncompressed jumps so that each is exactly 4 bytes. */
    .section .isr_vector, "ax"
    .option push
    .option norvc
    .globl __isr_vector
__isr_vector:
    j Reset_Handler                 /* 0 */
    .rept 55
    j Unhandled_IRQHandler          /* 1 .. 55 */
    .endr
    j CNN_FIFO_IRQHandler           /* 56: CNN_FIFO_IRQn */
    j CNN_IRQHandler                /* 57: CNN_IRQn */
    .rept 6
    j Unhandled_IRQHandler          /* 58 .. 63 */
    .endr
    .option pop

    .section .text.Reset_Handler, "ax"
    .globl Reset_Handler
Reset_Handler:
    la sp, __stack_top
    .option push
    .option norelax
    la gp, __global_pointer$
    .option pop
    call rv_start
1:  wfi
    j 1b
