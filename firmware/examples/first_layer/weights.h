/* first_layer: how the example's weights and biases are chosen. They are made
 * at run time from a fixed seed, so nothing here is a stored answer. */
#ifndef FIRST_LAYER_WEIGHTS_H
#define FIRST_LAYER_WEIGHTS_H

#define FL_WEIGHT_SEED 0x00c0ffeeu
#define FL_WEIGHT_MIN  (-48)  /* weights in [-48, 47]: some outputs saturate */
#define FL_WEIGHT_SPAN 96
#define FL_BIAS_MIN    (-64)  /* biases in [-64, 63] */
#define FL_BIAS_SPAN   128

#endif
