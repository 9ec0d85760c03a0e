#include "model/engine/layer_config.h"

#include <cstdio>
#include <string>

namespace ai8x {

namespace {

// Register fields, as the generator composes them for the MAX78000.
constexpr uint32_t kCountMask = 0x3ff;         // RCNT/CCNT [9:0]: last row/column incl. padding
constexpr unsigned kPadShift = 16;              // RCNT/CCNT [17:16]: padding
constexpr uint32_t kNibble = 0xf;

constexpr uint32_t kLctlBigData = 1u << 6;      // CHW input
constexpr uint32_t kLctlPoolEnable = 1u << 7;
constexpr uint32_t kLctlMaxPool = 1u << 8;
constexpr uint32_t kLctlRelu = 1u << 9;
constexpr uint32_t kLctlWideOutput = 1u << 16;  // 32-bit output

constexpr unsigned kLctl2WriteSkipShift = 4;    // [7:4] write pointer increment - 1
constexpr unsigned kLctl2ChannelMaxShift = 8;   // [16:8] last output channel * weight bits
constexpr uint32_t kLctl2ChannelMaxMask = 0x1ff;

constexpr unsigned kOnedStartShift = 4;         // [7:4] first kernel byte (1-D)
constexpr unsigned kOnedKernelShift = 8;        // [11:8] kernel length (1 = 1x1, 0 = 3x3)
constexpr uint32_t kOnedConv1d = 1u << 12;
constexpr uint32_t kOnedEltwise = 1u << 13;
constexpr unsigned kOnedEltwiseFnShift = 14;    // [15:14]
constexpr uint32_t kOnedPoolFirst = 1u << 16;
constexpr unsigned kOnedOperandsShift = 18;     // [21:18] operands - 1

constexpr uint32_t kPostBiasOffsetMask = 0xfff;
constexpr uint32_t kPostBiasEnable = 1u << 12;
constexpr unsigned kPostShiftShift = 13;        // [17:13] sign-magnitude output shift
constexpr unsigned kPostFlattenHighShift = 18;  // [21:18] flatten count bits 7..4
constexpr unsigned kPostWeightBitsShift = 22;   // [23:22] 0: 8, 1: 1, 2: 2, 3: 4 bits
constexpr uint32_t kPostAbs = 1u << 26;
constexpr uint32_t kPostFlatten = 1u << 27;
constexpr uint32_t kPostConvTranspose = 1u << 28;

constexpr uint32_t kCtlAvgPoolRound = 1u << 13;

// Transposed convolution upsamples by a fixed factor of two in both directions.
constexpr uint32_t kTransposeFactor = 2;

void warn(std::vector<EngineWarning>& w, int quadrant, int layer, unsigned reg, std::string msg) {
    w.push_back(EngineWarning{quadrant, layer, layer_register_name(reg), std::move(msg)});
}

arith::EltwiseOp eltwise_from_field(uint32_t fn) {
    switch (fn & 3) {
        case 0: return arith::EltwiseOp::Sub;
        case 1: return arith::EltwiseOp::Add;
        case 2: return arith::EltwiseOp::Or;
        default: return arith::EltwiseOp::Xor;
    }
}

arith::WeightFormat weight_format_from_field(uint32_t field) {
    switch (field & 3) {
        case 1: return arith::WeightFormat::Bits1;
        case 2: return arith::WeightFormat::Bits2;
        case 3: return arith::WeightFormat::Bits4;
        default: return arith::WeightFormat::Bits8;
    }
}

// Rows or columns as programmed: count field + 1 includes 2 * padding.
bool decode_count(uint32_t reg, uint32_t& programmed, uint32_t& pad, uint32_t& data) {
    programmed = (reg & kCountMask) + 1;
    pad = (reg >> kPadShift) & 3;
    if (programmed <= 2 * pad) return false;
    data = programmed - 2 * pad;
    return true;
}

}  // namespace

std::string to_hex(uint64_t value) {
    char text[24];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
    return text;
}

std::optional<LayerConfig> decode_layer(const AcceleratorState& state, int layer,
                                        const std::vector<int>& enabled_quadrants,
                                        std::vector<EngineWarning>& warnings) {
    const DeviceConfig& cfg = state.cfg;
    LayerConfig c;
    c.layer = layer;
    auto reg = [&](int q, unsigned kind) { return state.quadrant[q].lreg[kind][layer]; };

    // Processors and masks of every enabled quadrant.
    for (int q : enabled_quadrants) {
        const uint32_t ena = reg(q, LREG_ENA);
        // LREG_ENA: [15:0] processor enables, [31:16] mask (kernel) enables.
        for (uint32_t p = 0; p < cfg.processors_per_quadrant && p < 16; ++p) {
            if (!(ena >> p & 1)) continue;
            LayerProcessor lp;
            lp.quadrant = q;
            lp.local = static_cast<int>(p);
            lp.global = static_cast<int>(q * cfg.processors_per_quadrant + p);
            lp.mask_enabled = (ena >> (16 + p)) & 1;
            c.processors.push_back(lp);
            if (c.lead_quadrant < 0) c.lead_quadrant = q;
        }
    }
    if (c.lead_quadrant < 0) {
        warn(warnings, enabled_quadrants.empty() ? -1 : enabled_quadrants.front(), layer, LREG_ENA,
             "no processor enabled in any enabled quadrant; layer skipped");
        return std::nullopt;
    }
    const int lq = c.lead_quadrant;
    for (const auto& p : c.processors) c.convolution = c.convolution || p.mask_enabled;
    if (c.convolution) {
        // In a convolution every enabled processor needs its kernels and vice versa.
        for (int q : enabled_quadrants) {
            const uint32_t ena = reg(q, LREG_ENA);
            const uint32_t procs = ena & 0xffff, masks = ena >> 16;
            if (procs != masks)
                warn(warnings, q, layer, LREG_ENA,
                     "processor enables " + to_hex(procs) + " differ from mask enables " + to_hex(masks) +
                         "; processors without masks contribute nothing, masks without processors are ignored");
        }
    }

    const uint32_t lctl = reg(lq, LREG_LCTL);
    const uint32_t lctl2 = reg(lq, LREG_LCTL2);
    const uint32_t oned = reg(lq, LREG_ONED);
    const uint32_t post = reg(lq, LREG_POST);

    if (!decode_count(reg(lq, LREG_RCNT), c.programmed_rows, c.pad_rows, c.in_rows)) {
        warn(warnings, lq, layer, LREG_RCNT, "row count does not exceed twice the padding; layer skipped");
        return std::nullopt;
    }
    if (!decode_count(reg(lq, LREG_CCNT), c.programmed_cols, c.pad_cols, c.in_cols)) {
        warn(warnings, lq, layer, LREG_CCNT, "column count does not exceed twice the padding; layer skipped");
        return std::nullopt;
    }
    for (int q : enabled_quadrants) {
        if (q == lq || (reg(q, LREG_ENA) & 0xffff) == 0) continue;
        if (reg(q, LREG_RCNT) != reg(lq, LREG_RCNT) || reg(q, LREG_CCNT) != reg(lq, LREG_CCNT))
            warn(warnings, q, layer, LREG_RCNT, "row/column counts differ from quadrant " +
                 std::to_string(lq) + "; using quadrant " + std::to_string(lq));
    }

    c.chw_input = lctl & kLctlBigData;
    c.wide_output = lctl & kLctlWideOutput;
    c.pool_enabled = lctl & kLctlPoolEnable;
    c.pool_max = lctl & kLctlMaxPool;
    if (state.quadrant[lq].ctl & kCtlAvgPoolRound) c.pool_rounding = arith::AvgPoolRounding::Round;

    // 1-D / kernel shape / element-wise.
    c.conv1d = oned & kOnedConv1d;
    const uint32_t klen = (oned >> kOnedKernelShift) & kNibble;
    if (c.conv1d) {
        if (klen == 0) {
            warn(warnings, lq, layer, LREG_ONED, "1-D convolution with kernel length 0; layer skipped");
            return std::nullopt;
        }
        c.kernel_rows = klen;
        c.kernel_cols = 1;
        c.kernel_slot_bytes = klen;
        c.oned_start_byte = (oned >> kOnedStartShift) & kNibble;
    } else if (klen == 1) {
        c.kernel_rows = c.kernel_cols = 1;
        c.kernel_slot_bytes = 1;
    } else {
        c.kernel_rows = c.kernel_cols = 3;
        c.kernel_slot_bytes = 9;
    }
    c.timeslots = (oned & kNibble) + 1;
    if (oned & kOnedEltwise) {
        c.eltwise = true;
        c.eltwise_op = eltwise_from_field(oned >> kOnedEltwiseFnShift);
        c.operands = ((oned >> kOnedOperandsShift) & kNibble) + 1;
        c.pool_before_eltwise = oned & kOnedPoolFirst;
    }

    // Pooling window and stride; the stride register steps the pooling window.
    if (c.pool_enabled) {
        c.pool_rows = (reg(lq, LREG_PRCNT) & kNibble) + 1;
        c.pool_cols = c.conv1d ? 1 : (reg(lq, LREG_PCCNT) & kNibble) + 1;
    }
    c.pool_stride = (reg(lq, LREG_STRIDE) & kNibble) + 1;
    const uint32_t col_stride = c.conv1d ? 1 : c.pool_stride;
    // Transposed convolution: the row/column counts describe the input after
    // zero insertion (fixed upsampling factor); memory holds the smaller image.
    c.conv_transpose = post & kPostConvTranspose;
    if (c.conv_transpose) {
        if (c.in_rows % kTransposeFactor != 0 || c.in_cols % kTransposeFactor != 0) {
            warn(warnings, lq, layer, LREG_RCNT,
                 "transposed convolution needs even row and column counts; layer skipped");
            return std::nullopt;
        }
        c.in_rows /= kTransposeFactor;
        c.in_cols /= kTransposeFactor;
    }
    if (c.in_rows < c.pool_rows || c.in_cols < c.pool_cols) {
        warn(warnings, lq, layer, LREG_PRCNT, "pooling window larger than the input; layer skipped");
        return std::nullopt;
    }
    c.pooled_rows = (c.in_rows - c.pool_rows) / c.pool_stride + 1;
    c.pooled_cols = (c.in_cols - c.pool_cols) / col_stride + 1;

    // Post-processing register.
    c.weight_format = weight_format_from_field(post >> kPostWeightBitsShift);
    c.weight_bits = static_cast<uint32_t>(arith::weight_bits(c.weight_format));
    c.output_shift = arith::decode_output_shift(post >> kPostShiftShift);
    if (post & kPostAbs) c.activation = arith::Activation::Abs;
    else if (lctl & kLctlRelu) c.activation = arith::Activation::ReLU;
    c.flatten = post & kPostFlatten;
    c.passes = (lctl2 & kNibble) + 1;
    if (c.flatten) c.passes += ((post >> kPostFlattenHighShift) & kNibble) << 4;
    for (int q : enabled_quadrants) {
        const uint32_t qpost = reg(q, LREG_POST);
        if (qpost & kPostBiasEnable) c.biases.push_back({q, qpost & kPostBiasOffsetMask});
    }

    // Kernel memory range and output channels.
    const uint32_t mcnt = reg(lq, LREG_MCNT);
    c.mask_start = mcnt >> 16;
    c.mask_end = mcnt & 0xffff;
    c.channel_positions = ((lctl2 >> kLctl2ChannelMaxShift) & kLctl2ChannelMaxMask) / c.weight_bits + 1;
    if (c.convolution) {
        if (c.mask_end < c.mask_start) {
            warn(warnings, lq, layer, LREG_MCNT, "mask end address below mask start; layer skipped");
            return std::nullopt;
        }
        // The mask address runs through (output pass, channel, input pass); the
        // last output pass may stop early when its upper channels are unused.
        const uint32_t kernels = (c.mask_end - c.mask_start) / c.weight_bits + 1;
        const uint32_t per_pass = c.channel_positions * c.passes;
        c.output_passes = (kernels + per_pass - 1) / per_pass;
    }

    // Pointers.
    c.read_base = reg(lq, LREG_RPTR_BASE);
    c.write_base = reg(lq, LREG_WPTR_BASE);
    const uint32_t skip = (lctl2 >> kLctl2WriteSkipShift) & kNibble;
    c.write_stride = (skip + 1) * (c.wide_output && c.convolution ? 4 : 1);
    c.write_pass_offset = reg(lq, LREG_WPTR_CHOFFS);
    c.write_group_offset = c.convolution ? reg(lq, LREG_WPTR_MOFFS) : reg(lq, LREG_WPTR_TOFFS);
    c.quadrant_write_base.assign(cfg.quadrants, 0);
    for (int q : enabled_quadrants) c.quadrant_write_base[q] = reg(q, LREG_WPTR_BASE);
    return c;
}

}  // namespace ai8x
