/* first_layer: one hand-programmed 3x3 convolution on the CNN accelerator.
 * Shape shared by the programming code (cnn.c) and the check (main.c). */
#ifndef FIRST_LAYER_CNN_H
#define FIRST_LAYER_CNN_H

#include <stdint.h>

#define FL_CHANNELS_IN  4   /* processors 0..3 of quadrant 0 */
#define FL_CHANNELS_OUT 4   /* one kernel word per (input, output) pair */
#define FL_HEIGHT       8
#define FL_WIDTH        8
#define FL_PAD          1   /* output keeps the 8x8 size */
#define FL_TAPS         9   /* 3x3 kernel, row-major */

/* Quadrant 0 of the accelerator. */
#define FL_Q0_REGS   0x50100000u
#define FL_Q0_BIAS   0x50108000u
#define FL_KERNELS   0x50180000u /* processor p at + p * 0x4000 */
#define FL_DATA      0x50400000u /* data memory instance 0 */
#define FL_OUT_WORD  0x1000u     /* output word address inside instance 0 */

extern volatile int fl_done;

void fl_power_up(void);
void fl_configure(void);
void fl_load_kernels(const int8_t w[FL_CHANNELS_OUT][FL_CHANNELS_IN][FL_TAPS]);
void fl_load_bias(const int8_t bias[FL_CHANNELS_OUT]);
void fl_load_input(const int8_t x[FL_HEIGHT][FL_WIDTH][FL_CHANNELS_IN]);
void fl_start(void);
int8_t fl_output(int y, int x, int channel);

#endif
