/* first_layer: the expected output is not stored. main.c computes it with a
 * plain C convolution (reference_output()) that shares no code with the
 * simulator, then compares every byte the accelerator wrote. */
#ifndef FIRST_LAYER_SAMPLEOUTPUT_H
#define FIRST_LAYER_SAMPLEOUTPUT_H

/* Output scaling used by both the registers and the reference: the
 * accumulator is multiplied by 2^FL_OUTPUT_SHIFT / 128 before rounding. */
#define FL_OUTPUT_SHIFT 0

#endif
