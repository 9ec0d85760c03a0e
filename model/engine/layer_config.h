// Decoded per-layer configuration: what the per-layer registers of all
// quadrants say a layer must do, in plain numbers. Decoding happens once per
// layer so that the compute loops never look at register bits.
//
// Register field positions follow the MAX78000 layer register set (LREG 0..20):
// rows/columns with padding, pooling rows/columns/stride, write pointer (base,
// timeslot offset, mask offset, multi-pass channel offset), read pointer base,
// layer control 1/2, mask count (kernel memory start/end), processor/mask
// enables, post-processing (bias, output shift, weight width, activation,
// flatten) and the 1-D/element-wise register.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/accel_state.h"
#include "model/arith.h"
#include "model/engine/layer_engine.h"
#include "model/registers/quadrant_registers.h"

namespace ai8x {

// calcx4 (MAX78002 LREG_POST.CALCX4) computes four outputs at once (the feature's name).
constexpr uint32_t kCalcx4Outputs = 4;

// Per-layer register kinds (LREG_*) and their names come from the register
// table in model/registers/quadrant_registers.h, the single source of truth.

// "0x1f" style text for warnings.
std::string to_hex(uint64_t value);

// One enabled processor of a layer.
struct LayerProcessor {
    int quadrant = 0;
    int local = 0;              // 0..processors_per_quadrant-1
    int global = 0;             // quadrant * processors_per_quadrant + local
    bool mask_enabled = false;  // contributes weights (convolution layers)
};

struct LayerConfig {
    int layer = 0;
    int lead_quadrant = -1;  // quadrant whose shared registers are used

    // Input geometry as stored in memory (before pooling and upsampling;
    // padding excluded) and padding.
    uint32_t in_rows = 0, in_cols = 0;
    uint32_t programmed_rows = 0, programmed_cols = 0;  // incl. padding, as in RCNT/CCNT
    uint32_t pad_rows = 0, pad_cols = 0;

    // Pooling: window and stride (a 1x1 window with stride > 1 subsamples).
    bool pool_enabled = false;
    bool pool_max = false;
    uint32_t pool_rows = 1, pool_cols = 1;  // rows/columns the window spans (dilation included)
    // Pool dilation (MAX78002 PRCNT_INC/PCCNT_INC + 1): the window takes every
    // pool_row_step-th row and pool_col_step-th column of its span.
    uint32_t pool_row_step = 1, pool_col_step = 1;
    uint32_t pool_stride = 1;
    arith::AvgPoolRounding pool_rounding = arith::AvgPoolRounding::Truncate;
    uint32_t pooled_rows = 0, pooled_cols = 0;

    // Data formats.
    bool chw_input = false;    // LCTL "big data": one channel per memory instance, 4 pixels/word
    bool wide_output = false;  // 32-bit output words

    // Operation.
    bool convolution = false;  // mask enables set: processors multiply with kernels
    bool conv1d = false;
    uint32_t kernel_rows = 1, kernel_cols = 1;  // 3x3, 1x1 or k x 1 (1-D)
    uint32_t kernel_slot_bytes = 9;             // bytes one kernel occupies in the kernel stream
    uint32_t oned_start_byte = 0;               // kernel stream start inside the first word (1-D)
    uint32_t passes = 1;  // input words per pixel and processor: multi-pass count or flatten length
    bool flatten = false;
    bool conv_transpose = false;  // input is upsampled 2x by zero insertion before the kernel

    // Element-wise operation on several operands read per pixel.
    uint32_t operands = 1;
    bool eltwise = false;  // LREG_ONED element-wise enable (operands > 1)
    arith::EltwiseOp eltwise_op = arith::EltwiseOp::Add;
    bool pool_before_eltwise = false;

    // Kernel memory: bit-granular mask address range [mask_start, mask_end].
    uint32_t mask_start = 0, mask_end = 0;
    arith::WeightFormat weight_format = arith::WeightFormat::Bits8;
    uint32_t weight_bits = 8;
    // REG_CTL.TIMESHFT with 1-bit weights (MAX78002 "binary" quantization): a
    // stored 0 weighs +1 and a stored 1 weighs -1 instead of 0 and -1.
    bool binary_weights = false;
    // LREG_POST.CALCX4 (MAX78002): four outputs at once, output o from kernel
    // block o % 4; each block holds calcx4_block kernels (LREG_OCHAN.OCHAN_MAX
    // + 1) from the mask start address on (kernel_fetch). The mask range covers
    // one block (the generator's start layer) or all four (other layers): the
    // output count comes from OCHAN_MAX, and each bias address is BPTR_SAD * 4
    // plus the output channel.
    bool calcx4 = false;
    uint32_t calcx4_block = 0;
    // REG_CTL.QUPAC (MAX78002 --fast-fifo-quad) on the layer the fast FIFO
    // feeds: every quadrant gets the same input, and quadrant q computes output
    // channels k * quadrants + q with its own processors only, from its kernel
    // k (izer kernels.py: kernel column col_target goes to quadrant
    // col_target % 4, column col_target / 4) and its own bias byte at
    // BPTR_SAD + k (izer kbias.py: bias i in quadrant i % 4).
    bool quad_fanout = false;
    // LREG_POST.DW_EN (MAX78002): depth-wise convolution, every processor
    // convolves its own input channel with its own kernel into output channel
    // number = its index among the enabled processors; nothing is summed across
    // processors. Where that channel is written: see `broadcast`.
    bool depthwise = false;
    // LREG_LCTL.BROADCAST with depth-wise (the generator sets it when the
    // output processors are the input processors): each processor's result
    // stays at its own byte position, counted from the word group of the first
    // enabled processor (kernel_fetch.h, depthwise_slots); the bias is stored
    // four-way interleaved.
    bool broadcast = false;
    // LREG_LCTL.BYPASS (MAX78002 kernel bypass): the multipliers are bypassed,
    // every weight is 1 (izer's model of it: a kernel of ones, output shift 7);
    // every enabled processor takes part although no mask is enabled.
    bool bypass = false;

    // Output channels.
    uint32_t channel_positions = 1;  // output channels per pass (from LCTL2 XPCH_MAX)
    uint32_t output_passes = 1;
    uint32_t timeslots = 1;  // LREG_ONED[3:0] + 1: output time slots (passthrough timing)

    // Post-processing.
    int output_shift = 0;
    arith::Activation activation = arith::Activation::None;
    struct Bias {
        int quadrant;
        uint32_t offset;
    };
    std::vector<Bias> biases;

    // Pointers (word addresses; bits 16..13 select the global memory instance).
    uint32_t read_base = 0;
    // HWC input: words from one input pixel to the next (passes x operands,
    // unless the MAX78002's LREG_STRIDE.MP_STRIDE says more: the generator's
    // input skip, pool stride x operands x passes x (skip + 1) per pool stride).
    uint32_t pixel_pitch = 1;
    uint32_t write_base = 0;                    // lead quadrant's write pointer
    uint32_t write_stride = 1;                  // words between two output pixels
    uint32_t write_pass_offset = 0;             // words between two output passes
    uint32_t write_group_offset = 0;            // pointer step between groups of four output channels
    std::vector<uint32_t> quadrant_write_base;  // per quadrant (passthrough layers write per quadrant)

    std::vector<LayerProcessor> processors;
};

// Decodes `layer` from the registers of the enabled quadrants. Returns nothing
// (and adds a warning) when the layer cannot run at all. The decoded layer and
// its warnings are kept in state.decoded_layers with the register values they
// came from, and given again while those are unchanged.
std::optional<LayerConfig> decode_layer(const AcceleratorState& state, int layer,
                                        const std::vector<int>& enabled_quadrants,
                                        std::vector<EngineWarning>& warnings);

}  // namespace ai8x
