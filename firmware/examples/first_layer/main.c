/* first_layer: the bundled example of `ai8xsim run` (no folder given).
 *
 * Hand-writes one layer: 4x8x8 HWC input, 3x3 convolution, padding 1, bias,
 * ReLU, 4x8x8 output. The firmware programs the accelerator (cnn.c), waits
 * for its interrupt, then checks every output byte against reference_output(),
 * a plain C convolution that follows the vendor's "Number Format" rules:
 *   acc = sum(data * weight) + bias * 128      (exact integer MAC)
 *   out = floor((acc * 2^shift + 64) / 128)    (round half up)
 *   out = clamp(out, -128, 127), then ReLU     (negative -> 0)
 * Data, weights and biases come from a fixed-seed LCG, so the run is
 * deterministic, yet no answer is stored anywhere. */
#include <stdint.h>
#include <stdio.h>
#include "mxc.h"
#include "cnn.h"
#include "weights.h"
#include "sampledata.h"
#include "sampleoutput.h"

static int8_t input[FL_HEIGHT][FL_WIDTH][FL_CHANNELS_IN];
static int8_t kernels[FL_CHANNELS_OUT][FL_CHANNELS_IN][FL_TAPS];
static int8_t bias[FL_CHANNELS_OUT];

static uint32_t lcg_state;

/* Numerical Recipes constants; the high byte is the best mixed. */
static int8_t lcg_next(int min, int span)
{
    lcg_state = lcg_state * 1664525u + 1013904223u;
    return (int8_t) (min + (int) ((lcg_state >> 24) % (uint32_t) span));
}

static void make_data(void)
{
    lcg_state = FL_INPUT_SEED;
    for (int y = 0; y < FL_HEIGHT; y++)
        for (int x = 0; x < FL_WIDTH; x++)
            for (int c = 0; c < FL_CHANNELS_IN; c++) input[y][x][c] = lcg_next(FL_INPUT_MIN, FL_INPUT_SPAN);
    lcg_state = FL_WEIGHT_SEED;
    for (int o = 0; o < FL_CHANNELS_OUT; o++)
        for (int c = 0; c < FL_CHANNELS_IN; c++)
            for (int t = 0; t < FL_TAPS; t++) kernels[o][c][t] = lcg_next(FL_WEIGHT_MIN, FL_WEIGHT_SPAN);
    for (int o = 0; o < FL_CHANNELS_OUT; o++) bias[o] = lcg_next(FL_BIAS_MIN, FL_BIAS_SPAN);
}

static int8_t reference_output(int y, int x, int o)
{
    int32_t acc = (int32_t) bias[o] * 128;
    for (int c = 0; c < FL_CHANNELS_IN; c++)
        for (int ky = 0; ky < 3; ky++)
            for (int kx = 0; kx < 3; kx++) {
                int sy = y + ky - FL_PAD, sx = x + kx - FL_PAD;
                if (sy < 0 || sy >= FL_HEIGHT || sx < 0 || sx >= FL_WIDTH) continue; /* zero padding */
                acc += (int32_t) input[sy][sx][c] * kernels[o][c][ky * 3 + kx];
            }
    /* Arithmetic right shift is floor division; +64 rounds half up. */
    int32_t scaled = FL_OUTPUT_SHIFT >= 0 ? acc * (1 << FL_OUTPUT_SHIFT) : acc >> -FL_OUTPUT_SHIFT;
    int32_t v = (scaled + 64) >> 7;
    if (v > 127) v = 127;
    if (v < -128) v = -128;
    return (int8_t) (v < 0 ? 0 : v);
}

int main(void)
{
    printf("\nfirst_layer: 4x8x8 HWC, conv2d 3x3 pad 1, bias, ReLU -> 4x8x8\n");
    make_data();

    fl_power_up();
    fl_load_kernels(kernels);
    fl_load_bias(bias);
    fl_configure();
    fl_load_input(input);
    fl_start();
    while (!fl_done)
        MXC_LP_EnterSleepMode(); /* WFI until the completion interrupt */

    int errors = 0, nonzero = 0, saturated = 0;
    for (int y = 0; y < FL_HEIGHT; y++)
        for (int x = 0; x < FL_WIDTH; x++)
            for (int o = 0; o < FL_CHANNELS_OUT; o++) {
                int8_t want = reference_output(y, x, o), got = fl_output(y, x, o);
                nonzero += want != 0;
                saturated += want == 127;
                if (got != want && errors++ < 8)
                    printf("y=%d x=%d channel %d: accelerator %d, reference %d\n", y, x, o, got, want);
            }
    printf("%d of %d outputs differ (%d non-zero, %d saturated in the reference)\n", errors,
           FL_HEIGHT * FL_WIDTH * FL_CHANNELS_OUT, nonzero, saturated);
    if (errors) {
        printf("\n*** FAIL ***\n\n");
        return 1;
    }
    printf("\n*** PASS ***\n\n");
    return 0;
}
