/* Softmax for classification results unloaded from the accelerator.
 *
 * Input: 32-bit values in Q17.14 fixed point; output: probabilities in Q15.
 * Like the CMSIS-NN q15 softmax it approximates e^x by 2^x rounded to whole
 * powers of two, which needs only shifts: every input further than 16 units
 * below the maximum contributes nothing; the others contribute
 * 2^round(x - (max - 16)) to the denominator, and each output is
 * 2^32 / sum scaled down by the same power of two (saturated to Q15).
 *
 * Weak: generator releases copy their own softmax.c into the project folder,
 * and that one, built with the folder, takes precedence. */
#include <stdint.h>

typedef int32_t q31_t;
typedef int16_t q15_t;

#define Q14_ONE (1 << 14)
#define WINDOW (16 * Q14_ONE)  /* inputs below max - 16 are treated as zero probability */

static q15_t saturate_q15(int32_t v)
{
    if (v > 32767) return 32767;
    if (v < -32768) return -32768;
    return (q15_t) v;
}

__attribute__((weak)) void softmax_q17p14_q15(const q31_t *vec_in, const uint16_t dim_vec, q15_t *p_out)
{
    q31_t max = INT32_MIN;
    for (uint16_t i = 0; i < dim_vec; i++)
        if (vec_in[i] > max) max = vec_in[i];
    const q31_t floor_value = max - WINDOW;

    /* Denominator: sum of 2^(distance above the floor, rounded to nearest). */
    int32_t sum = 0;
    for (uint16_t i = 0; i < dim_vec; i++) {
        if (vec_in[i] > floor_value) {
            int32_t exponent = (vec_in[i] - floor_value + Q14_ONE / 2) >> 14;
            sum += (int32_t) 1 << exponent;
        }
    }

    const int32_t scale = (int32_t) (((int64_t) 1 << 32) / sum);
    for (uint16_t i = 0; i < dim_vec; i++) {
        if (vec_in[i] > floor_value) {
            /* 2^e / sum in Q15 = scale >> (17 - e); the expression below rounds
             * e exactly as the denominator loop does (e <= 16, so shift >= 1). */
            int32_t shift = 17 + ((floor_value - vec_in[i] + Q14_ONE / 2 - 1) >> 14);
            p_out[i] = saturate_q15(scale >> shift);
        } else {
            p_out[i] = 0;
        }
    }
}

__attribute__((weak)) void softmax_shift_q17p14_q15(q31_t *vec_in, const uint16_t dim_vec, uint8_t in_shift, q15_t *p_out)
{
    for (uint16_t i = 0; i < dim_vec; i++) vec_in[i] <<= in_shift;
    softmax_q17p14_q15(vec_in, dim_vec, p_out);
}
