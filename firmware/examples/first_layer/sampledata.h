/* first_layer: how the example's input is chosen (fixed-seed LCG). */
#ifndef FIRST_LAYER_SAMPLEDATA_H
#define FIRST_LAYER_SAMPLEDATA_H

#define FL_INPUT_SEED 0x1234abcdu
#define FL_INPUT_MIN  (-128) /* full int8 range */
#define FL_INPUT_SPAN 256

#endif
