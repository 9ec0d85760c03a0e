/* first_layer: programs one 3x3 convolution layer of the accelerator register
 * by register (see docs/register-map.md for every field named below).
 *
 * Layout: input channel c lives on processor c of quadrant 0; the input is
 * HWC, so data memory instance 0 holds one 32-bit word per pixel with channel
 * c in byte c. Output channel o is written the same way, from word
 * FL_OUT_WORD on. The kernel from input c to output o is kernel word o of
 * processor c. */
#include <stdint.h>
#include "mxc.h"
#include "gcfr_regs.h"
#include "cnn.h"
#include "sampleoutput.h"

#define REG(offset) (*(volatile uint32_t *) (FL_Q0_REGS + (offset)))
/* Per-layer register of kind k for layer 0. */
#define LREG(kind) REG(0x010u + (kind) * 0x80u)

#define CTL_CNN_EN   (1u << 0)
#define CTL_CLK_EN   (1u << 3)
#define CTL_CNN_IRQ  (1u << 12)
#define CTL_MEXPRESS (1u << 20)

volatile int fl_done;

static void cnn_isr(void)
{
    /* Acknowledge: clearing CNN_IRQ drops the line, clearing CNN_EN stops. */
    REG(0x000) &= ~(CTL_CNN_IRQ | CTL_CNN_EN);
    fl_done = 1;
}

void fl_power_up(void)
{
    MXC_GCFR->reg3 = 0xf; /* hold all quadrants in reset */
    MXC_GCFR->reg1 = 0xf; /* enable the memories of all quadrants */
    MXC_GCFR->reg0 = 0xf; /* power all quadrants */
    MXC_GCFR->reg2 = 0x0; /* release the isolation */
    MXC_GCFR->reg3 = 0x0; /* release the reset */
    MXC_SYS_ClockEnable(MXC_SYS_PERIPH_CLOCK_CNN);
    MXC_NVIC_SetVector(CNN_IRQn, cnn_isr);

    REG(0x000) = CTL_MEXPRESS | CTL_CLK_EN; /* stopped, clocked, express kernel loading */
    REG(0x004) = 0x40e;                     /* SRAM timing, the usual value */
}

void fl_configure(void)
{
    const uint32_t rows = FL_HEIGHT + 2 * FL_PAD, cols = FL_WIDTH + 2 * FL_PAD;

    REG(0x008) = 0;                          /* LCNT_MAX: layer 0 is the last */
    LREG(0) = (FL_PAD << 16) | (rows - 1);   /* RCNT: top padding, last padded row */
    LREG(1) = (FL_PAD << 16) | (cols - 1);   /* CCNT: left padding, last padded column */
    LREG(2) = 0;                             /* ONED: 3x3 kernel, no 1-D, no element-wise */
    LREG(3) = 0;                             /* PRCNT: no pooling rows */
    LREG(4) = 0;                             /* PCCNT: no pooling columns */
    LREG(5) = 0;                             /* STRIDE: 1 */
    LREG(6) = FL_OUT_WORD;                   /* WPTR_BASE: output at word 0x1000 of instance 0 */
    LREG(8) = 0x2000;                        /* WPTR_MOFFS: next 16-channel group one instance on */
    LREG(10) = 0;                            /* RPTR_BASE: input from word 0 */
    LREG(11) = (1u << 5) | (1u << 9);        /* LCTL: master, ReLU */
    LREG(12) = (FL_CHANNELS_OUT - 1) * 8u;   /* MCNT: kernel words 0..3, 8 bits per weight step */
    LREG(13) = FL_WIDTH - 1;                 /* TPTR: TRAM holds one padded-row span */
    LREG(14) = (0xfu << 16) | 0xfu;          /* ENA: processors 0..3, their kernel masks */
    LREG(15) = (1u << 12)                    /* POST: add bias from slot 0 on, */
             | ((uint32_t) FL_OUTPUT_SHIFT << 13); /* output shift (0 here), 8-bit weights */
    LREG(20) = (FL_CHANNELS_OUT - 1) * 8u << 8; /* LCTL2: last output channel x weight bits */
}

void fl_load_kernels(const int8_t w[FL_CHANNELS_OUT][FL_CHANNELS_IN][FL_TAPS])
{
    /* Express loading: a byte write to (processor window + word * 4) | 1
     * opens a stream; then each 32-bit write adds four weights, first weight
     * in the most significant byte, nine weights per kernel word. Four 9-byte
     * kernels are exactly nine 32-bit writes. */
    for (int c = 0; c < FL_CHANNELS_IN; c++) {
        uint32_t window = FL_KERNELS + (uint32_t) c * 0x4000u;
        *(volatile uint8_t *) (window | 1u) = 0x01;
        volatile uint32_t *port = (volatile uint32_t *) window;
        uint32_t word = 0;
        int bytes = 0;
        for (int o = 0; o < FL_CHANNELS_OUT; o++)
            for (int t = 0; t < FL_TAPS; t++) {
                word = (word << 8) | (uint8_t) w[o][c][t];
                if (++bytes == 4) {
                    *port++ = word;
                    word = 0;
                    bytes = 0;
                }
            }
    }
}

void fl_load_bias(const int8_t bias[FL_CHANNELS_OUT])
{
    /* One byte per 4-byte slot; output channel o uses slot o. */
    for (int o = 0; o < FL_CHANNELS_OUT; o++)
        ((volatile uint32_t *) FL_Q0_BIAS)[o] = (uint8_t) bias[o];
}

void fl_load_input(const int8_t x[FL_HEIGHT][FL_WIDTH][FL_CHANNELS_IN])
{
    volatile uint32_t *mem = (volatile uint32_t *) FL_DATA;
    for (int y = 0; y < FL_HEIGHT; y++)
        for (int i = 0; i < FL_WIDTH; i++) {
            uint32_t v = 0;
            for (int c = 0; c < FL_CHANNELS_IN; c++) v |= (uint32_t) (uint8_t) x[y][i][c] << (8 * c);
            mem[y * FL_WIDTH + i] = v;
        }
}

void fl_start(void)
{
    fl_done = 0;
    /* Quadrant 0 is the only one and the master (EXT_SYNC = 0): the rising
     * edge of its CNN_EN starts the layer sequencer. */
    REG(0x000) = CTL_MEXPRESS | CTL_CLK_EN | CTL_CNN_EN;
}

int8_t fl_output(int y, int x, int channel)
{
    uint32_t v = ((volatile uint32_t *) FL_DATA)[FL_OUT_WORD + y * FL_WIDTH + x];
    return (int8_t) (v >> (8 * channel));
}
