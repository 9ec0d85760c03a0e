// The register fields the model acts on, resolved by name from the device
// description (configs/<device>.yaml, register_map) once per description.
// Behaviour code reads bits only through these RegField values, never through
// masks and shifts of its own, so a device with other field positions or
// widths needs only a new YAML file.
#pragma once

#include "model/registers/quadrant_registers.h"
#include "tlm/device_config.h"

namespace ai8x {

struct CtlFields {          // REG_CTL
    RegField cnn_en;        // CNN_EN: run
    RegField master_sel;    // MASTER_SEL: quadrant a tethered (EXT_SYNC) quadrant waits for
    RegField ext_sync;      // EXT_SYNC: wait for the MASTER_SEL quadrant
    RegField cnn_irq;       // CNN_IRQ: inference complete
    RegField poolrnd;       // POOLRND: round average pooling
    RegField stream_en;     // STREAM_EN: streaming mode
    RegField fifo_en;       // FIFO_EN: input from the FIFOs
    RegField lilbuf;        // LILBUF: set with FIFOs and streaming
    RegField mexpress;      // MEXPRESS: express kernel loading
    RegField ffifo_en;      // FFIFO_EN: input from the RISC-V core's fast FIFO
    RegField qupac;         // QUPAC: the fast FIFO fans out to all four FIFOs
    RegField timeshft;      // TIMESHFT: 1-bit weights are -1/+1 (the generator sets it for binary quantization)
    RegField pipeline_dis;  // PIPELINE_DIS (MAX78002; width 0 where the device has no pipeline)
    RegField oneshot;       // ONESHOT: one layer per start (model/sequencing.h)
};

struct LcntFields {  // REG_LCNT_MAX
    RegField last;   // LCNT
    RegField first;  // START
};

// Fields of the per-layer registers, grouped by register.
struct LayerFields {
    RegField rcnt_max, rcnt_pad;  // LREG_RCNT
    RegField ccnt_max, ccnt_pad;  // LREG_CCNT
    // MAX78002 counts (width 0 on the MAX78000): padding enables. With them the
    // count fields hold the start of the last pooling window in the unpadded
    // input and the pad fields padding - 1 (docs/max78002.md).
    RegField rcnt_pad_en, ccnt_pad_en;
    RegField ccnt_diff;  // CCNT_DIFF: input columns after the last window's start (width = CCNT_MAX + CCNT_DIFF)
    RegField tscnt_max, oned_sad, oned_width, oned_en, ewise_en, ewise_func, prepool, ewise_cnt;  // LREG_ONED
    RegField prcnt_max, prcnt_inc;  // LREG_PRCNT (PRCNT_INC: pool dilation - 1, MAX78002 only)
    RegField pccnt_max, pccnt_inc;  // LREG_PCCNT
    RegField stride;                // LREG_STRIDE
    RegField mp_stride;             // LREG_STRIDE.MP_STRIDE: words per pool stride of input (MAX78002 only)
    RegField wptr_base, wptr_toff, wptr_moff, wptr_choff, rptr_base;           // pointer registers
    RegField parallel, pool_en, maxpl_en, act_en, bigdwrt, broadcast, bypass;  // LREG_LCTL
    RegField mcnt_max, mcnt_sad;                                               // LREG_MCNT
    // Kinds holding MCNT_MAX and MCNT_SAD: LREG_MCNT for both (MAX78000), or
    // LREG_MCNT1 and LREG_MCNT2 (MAX78002).
    unsigned mcnt_max_kind = LREG_MCNT, mcnt_sad_kind = LREG_MCNT;
    RegField tptr_max, tptr_sad;  // LREG_TPTR
    RegField ochan_max;           // LREG_OCHAN (MAX78002 only)
    RegField pro_en, mask_en;     // LREG_ENA
    RegField bptr_sad, bptr_en, scale_reg, scale_shft, xpmp_cnt, mask_size, out_abs, flatten_en, deconv_en, dw_en,
        calcx4;                             // LREG_POST (DW_EN, CALCX4: MAX78002 only)
    RegField stream_start, fifo_go;         // LREG_STREAM1
    RegField invol, delta1, delta2;         // LREG_STREAM2
    RegField fbuf_max;                      // LREG_FMAX
    RegField inpchexp, wptr_inc, xpch_max;  // LREG_LCTL2
    RegField next_layer, link_en, stop;     // LREG_NXTLYR (MAX78002 layer links; width 0 elsewhere)
};

struct FifoFields {
    RegField enable;  // FIFO_CTL.FIFO_ENA: bit i enables FIFO i (which feeds quadrant i)
    RegField cpl;     // FIFO_CTL.FIFO_CPL: generated MAX78000 firmware always sets it
    RegField full;    // FIFO_STAT.FULL: bit i while FIFO i holds its depth
};

// Power, sleep and self-test fields (docs/power-and-reset.md). The per-kind
// arrays are indexed by memory kind: 0 data, 1 kernel, 2 TRAM, 3 bias.
struct PowerFields {
    static constexpr unsigned kMemoryKinds = 4;
    RegField clk_en;                     // REG_CTL.CLK_EN: the quadrant's clock runs
    RegField deep_sleep, power_down;     // REG_SRAM.DS, REG_SRAM.PD
    RegField light_sleep[kMemoryKinds];  // REG_SRAM.LSDRAM, LSMRAM, LSTRAM, LSBRAM
    RegField bist_start[kMemoryKinds];   // REG_SRAM_TEST.BIST_DATA/MASK/TRAM/BIAS_EX
    RegField bist_fail, bist_done;       // REG_SRAM_TEST: bit k per memory kind
    RegField bist_finished;              // REG_SRAM_TEST.BIST_FINISHED
    // Register clearing (MAX78002 only; width 0 where the device has none):
    RegField zero_start;         // REG_SRAM_TEST.ZERO_EX: clear the quadrant's per-layer registers
    RegField zero_select;        // REG_SRAM_TEST.MEM_SEL: bit 0 also clears the bias memory
    RegField zero_done;          // REG_SRAM_TEST.ZERO_DONE: the clearing is done
    RegField kernel_power_down;  // AON_CTL.PWR_DOWN: bit q per quadrant
};

// Snoop control (MAX78002 REG_SNPn_C1/C2, both units alike; width 0 where the
// device has no snoop; model/snoop.h).
struct SnoopFields {
    RegField enable, stop, link, acc_en, hit_en, max_en, count_mode, value_sel;  // C1
    RegField layer;                                                              // C2
};

struct RegisterFields {
    CtlFields ctl;
    LcntFields lcnt;
    RegField ifrm;  // REG_IFRM.IFRM
    LayerFields layer;
    FifoFields fifo;
    PowerFields power;
    SnoopFields snoop;

    // Resolves every field by name; throws ConfigError naming the device file
    // when one is missing.
    explicit RegisterFields(const RegisterMap& map);
};

// The resolved fields of `cfg`'s description: built on the first call for a
// description and kept, so callers may ask per layer or per inference. Code
// on a per-word path keeps the reference.
const RegisterFields& register_fields(const DeviceConfig& cfg);

}  // namespace ai8x
