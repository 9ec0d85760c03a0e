#include "model/engine/layer_config.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>

#include "model/registers/register_fields.h"

namespace ai8x {

namespace {

// Transposed convolution upsamples by a fixed factor of two in both directions.
constexpr uint32_t kTransposeFactor = 2;

void warn(std::vector<EngineWarning>& w, const DeviceConfig& cfg, int quadrant, int layer, unsigned reg,
          std::string msg) {
    w.push_back(EngineWarning{quadrant, layer, layer_register_name(cfg, reg), std::move(msg)});
}

arith::EltwiseOp eltwise_from_field(uint32_t fn) {
    switch (fn) {
        case 0: return arith::EltwiseOp::Sub;
        case 1: return arith::EltwiseOp::Add;
        case 2: return arith::EltwiseOp::Or;
        default: return arith::EltwiseOp::Xor;
    }
}

arith::WeightFormat weight_format_from_field(uint32_t field) {
    switch (field) {
        case 1: return arith::WeightFormat::Bits1;
        case 2: return arith::WeightFormat::Bits2;
        case 3: return arith::WeightFormat::Bits4;
        default: return arith::WeightFormat::Bits8;
    }
}

// Rows or columns as programmed: count field + 1 includes 2 * padding.
bool decode_count(uint32_t reg, RegField count, RegField padding, uint32_t& programmed, uint32_t& pad, uint32_t& data) {
    programmed = count.get(reg) + 1;
    pad = padding.get(reg);
    if (programmed <= 2 * pad) return false;
    data = programmed - 2 * pad;
    return true;
}

// MAX78002 counts: the count field is where the last pooling window starts in
// the unpadded input (izer max7800x.py: in_row - diff), padding is PAD + 1 when
// PADEN is set. `after_stop` is how many input rows (columns) follow from that
// start on. Returned in the MAX78000's terms (programmed = data + 2 * pad).
void decode_count_from_stop(uint32_t reg, RegField stop, RegField padding, RegField pad_enable, uint32_t after_stop,
                            uint32_t& programmed, uint32_t& pad, uint32_t& data) {
    data = stop.get(reg) + after_stop;
    pad = pad_enable.is_set(reg) ? padding.get(reg) + 1 : 0;
    programmed = data + 2 * pad;
}

}  // namespace

std::string to_hex(uint64_t value) {
    char text[24];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
    return text;
}

namespace {

// Reads the per-layer registers of one layer; the steps below decode them.
struct LayerRegs {
    const AcceleratorState& state;
    const DeviceConfig& cfg;
    const RegisterFields& f;
    int layer;
    const std::vector<int>& quadrants;  // the enabled ones
    std::vector<EngineWarning>& warnings;

    uint32_t operator()(int q, unsigned kind) const { return state.quadrant[q].lreg[kind][layer]; }
    void warn(int q, unsigned kind, std::string msg) const {
        ai8x::warn(warnings, cfg, q, layer, kind, std::move(msg));
    }
};

// Processors and masks of every enabled quadrant; the first quadrant with an
// enabled processor leads (its shared registers are used).
void decode_processors(const LayerRegs& reg, LayerConfig& c) {
    c.processors.reserve(reg.quadrants.size() * reg.cfg.processors_per_quadrant);
    for (int q : reg.quadrants) {
        const uint32_t ena = reg(q, LREG_ENA);
        for (uint32_t p = 0; p < reg.cfg.processors_per_quadrant && p < reg.f.LREG_ENA.PRO_EN.width; ++p) {
            if (!reg.f.LREG_ENA.PRO_EN.bit(ena, p)) continue;
            LayerProcessor lp;
            lp.quadrant = q;
            lp.local = static_cast<int>(p);
            lp.global = static_cast<int>(q * reg.cfg.processors_per_quadrant + p);
            lp.mask_enabled = reg.f.LREG_ENA.MASK_EN.bit(ena, p);
            c.processors.push_back(lp);
            if (c.lead_quadrant < 0) c.lead_quadrant = q;
        }
    }
}

// Kernel bypass enables every processor's (all-ones) kernel; in a convolution
// every enabled processor needs its kernels and vice versa.
void decode_convolution(const LayerRegs& reg, LayerConfig& c) {
    c.bypass = reg.f.LREG_LCTL.BYPASS.is_set(reg(c.lead_quadrant, LREG_LCTL));
    if (c.bypass)
        for (auto& p : c.processors) p.mask_enabled = true;
    for (const auto& p : c.processors) c.convolution = c.convolution || p.mask_enabled;
    if (!c.convolution || c.bypass) return;
    for (int q : reg.quadrants) {
        const uint32_t ena = reg(q, LREG_ENA);
        const uint32_t procs = reg.f.LREG_ENA.PRO_EN.get(ena), masks = reg.f.LREG_ENA.MASK_EN.get(ena);
        if (procs != masks)
            reg.warn(q, LREG_ENA,
                     "processor enables " + to_hex(procs) + " differ from mask enables " + to_hex(masks) +
                         "; processors without masks contribute nothing, masks without processors are ignored");
    }
}

// Input rows and columns with their padding, in either device's form.
bool decode_counts(const LayerRegs& reg, LayerConfig& c) {
    const RegisterFields& f = reg.f;
    const int lq = c.lead_quadrant;
    if (f.LREG_RCNT.RCNT_PADEN.width != 0) {
        // Rows: the last window spans the pooling rows (PRCNT_MAX + 1, dilation
        // included) or one row; rows beyond it are never read. Columns: CCNT_DIFF
        // is the rest of the row from the last window's start (the row pitch).
        const bool pooled = f.LREG_LCTL.POOL_EN.is_set(reg(lq, LREG_LCTL));
        const uint32_t row_window = pooled ? f.LREG_PRCNT.PRCNT_MAX.get(reg(lq, LREG_PRCNT)) + 1 : 1;
        const uint32_t ccnt = reg(lq, LREG_CCNT);
        decode_count_from_stop(reg(lq, LREG_RCNT), f.LREG_RCNT.RCNT_MAX, f.LREG_RCNT.RCNT_PAD, f.LREG_RCNT.RCNT_PADEN,
                               row_window, c.programmed_rows, c.pad_rows, c.in_rows);
        decode_count_from_stop(ccnt, f.LREG_CCNT.CCNT_MAX, f.LREG_CCNT.CCNT_PAD, f.LREG_CCNT.CCNT_PADEN,
                               std::max(1u, f.LREG_CCNT.CCNT_DIFF.get(ccnt)), c.programmed_cols, c.pad_cols, c.in_cols);
    } else if (!decode_count(reg(lq, LREG_RCNT), f.LREG_RCNT.RCNT_MAX, f.LREG_RCNT.RCNT_PAD, c.programmed_rows,
                             c.pad_rows, c.in_rows)) {
        reg.warn(lq, LREG_RCNT, "row count does not exceed twice the padding; layer skipped");
        return false;
    } else if (!decode_count(reg(lq, LREG_CCNT), f.LREG_CCNT.CCNT_MAX, f.LREG_CCNT.CCNT_PAD, c.programmed_cols,
                             c.pad_cols, c.in_cols)) {
        reg.warn(lq, LREG_CCNT, "column count does not exceed twice the padding; layer skipped");
        return false;
    }
    for (int q : reg.quadrants) {
        if (q == lq || f.LREG_ENA.PRO_EN.get(reg(q, LREG_ENA)) == 0) continue;
        if (reg(q, LREG_RCNT) != reg(lq, LREG_RCNT) || reg(q, LREG_CCNT) != reg(lq, LREG_CCNT))
            reg.warn(q, LREG_RCNT,
                     "row/column counts differ from quadrant " + std::to_string(lq) + "; using quadrant " +
                         std::to_string(lq));
    }
    return true;
}

// Data formats, kernel shape (3x3, 1x1 or 1-D) and element-wise operands.
bool decode_operation(const LayerRegs& reg, LayerConfig& c) {
    const RegisterFields& f = reg.f;
    const int lq = c.lead_quadrant;
    const uint32_t lctl = reg(lq, LREG_LCTL);
    const uint32_t oned = reg(lq, LREG_ONED);
    c.chw_input = f.LREG_LCTL.PARALLEL.is_set(lctl);
    c.wide_output = f.LREG_LCTL.BIGDWRT.is_set(lctl);
    c.pool_enabled = f.LREG_LCTL.POOL_EN.is_set(lctl);
    c.pool_max = f.LREG_LCTL.MAXPL_EN.is_set(lctl);
    if (reg.f.REG_CTL.POOLRND.is_set(reg.state.quadrant[lq].ctl)) c.pool_rounding = arith::AvgPoolRounding::Round;
    c.conv1d = f.LREG_ONED.ONED_EN.is_set(oned);
    const uint32_t klen = f.LREG_ONED.ONED_WIDTH.get(oned);
    if (c.conv1d) {
        if (klen == 0) {
            reg.warn(lq, LREG_ONED, "1-D convolution with kernel length 0; layer skipped");
            return false;
        }
        c.kernel_rows = klen;
        c.kernel_cols = 1;
        c.kernel_slot_bytes = klen;
        c.oned_start_byte = f.LREG_ONED.ONED_SAD.get(oned);
    } else if (klen == 1) {
        c.kernel_rows = c.kernel_cols = 1;
        c.kernel_slot_bytes = 1;
    } else {
        c.kernel_rows = c.kernel_cols = 3;
        c.kernel_slot_bytes = 9;
    }
    c.timeslots = f.LREG_ONED.TSCNT_MAX.get(oned) + 1;
    if (f.LREG_ONED.EWISE_EN.is_set(oned)) {
        c.eltwise = true;
        c.eltwise_op = eltwise_from_field(f.LREG_ONED.EWISE_FUNC.get(oned));
        c.operands = f.LREG_ONED.EWISE_CNT.get(oned) + 1;
        c.pool_before_eltwise = f.LREG_ONED.PREPOOL.is_set(oned);
    }
    return true;
}

// Pooling window and stride (the stride register steps the pooling window),
// transposed convolution's upsampling and the pooled size.
bool decode_pooling(const LayerRegs& reg, LayerConfig& c) {
    const RegisterFields& f = reg.f;
    const int lq = c.lead_quadrant;
    if (c.pool_enabled) {
        c.pool_rows = f.LREG_PRCNT.PRCNT_MAX.get(reg(lq, LREG_PRCNT)) + 1;
        c.pool_cols = c.conv1d ? 1 : f.LREG_PCCNT.PCCNT_MAX.get(reg(lq, LREG_PCCNT)) + 1;
        c.pool_row_step = f.LREG_PRCNT.PRCNT_INC.get(reg(lq, LREG_PRCNT)) + 1;
        c.pool_col_step = c.conv1d ? 1 : f.LREG_PCCNT.PCCNT_INC.get(reg(lq, LREG_PCCNT)) + 1;
    }
    c.pool_stride = f.LREG_STRIDE.STRIDE.get(reg(lq, LREG_STRIDE)) + 1;
    const uint32_t col_stride = c.conv1d ? 1 : c.pool_stride;
    // Transposed convolution: the row/column counts describe the input after
    // zero insertion (fixed upsampling factor); memory holds the smaller image.
    c.conv_transpose = f.LREG_POST.DECONV_EN.is_set(reg(lq, LREG_POST));
    if (c.conv_transpose) {
        if (c.in_rows % kTransposeFactor != 0 || c.in_cols % kTransposeFactor != 0) {
            reg.warn(lq, LREG_RCNT, "transposed convolution needs even row and column counts; layer skipped");
            return false;
        }
        c.in_rows /= kTransposeFactor;
        c.in_cols /= kTransposeFactor;
    }
    if (c.in_rows < c.pool_rows || c.in_cols < c.pool_cols) {
        reg.warn(lq, LREG_PRCNT, "pooling window larger than the input; layer skipped");
        return false;
    }
    c.pooled_rows = (c.in_rows - c.pool_rows) / c.pool_stride + 1;
    c.pooled_cols = (c.in_cols - c.pool_cols) / col_stride + 1;
    return true;
}

// Post-processing: weight format, output shift, activation, flatten,
// depth-wise, calcx4, input passes and the bias of every quadrant.
void decode_post(const LayerRegs& reg, LayerConfig& c) {
    const RegisterFields& f = reg.f;
    const int lq = c.lead_quadrant;
    const uint32_t post = reg(lq, LREG_POST);
    c.weight_format = weight_format_from_field(f.LREG_POST.MASK_SIZE.get(post));
    c.weight_bits = static_cast<uint32_t>(arith::weight_bits(c.weight_format));
    c.binary_weights = c.weight_bits == 1 && reg.f.REG_CTL.TIMESHFT.is_set(reg.state.quadrant[lq].ctl);
    // SCALE_SHFT:SCALE_REG together are the sign-magnitude shift code arith decodes.
    c.output_shift = arith::decode_output_shift(f.LREG_POST.SCALE_SHFT.get(post) << f.LREG_POST.SCALE_REG.width |
                                                f.LREG_POST.SCALE_REG.get(post));
    if (f.LREG_POST.OUT_ABS.is_set(post))
        c.activation = arith::Activation::Abs;
    else if (f.LREG_LCTL.ACT_EN.is_set(reg(lq, LREG_LCTL)))
        c.activation = arith::Activation::ReLU;
    c.flatten = f.LREG_POST.FLATTEN_EN.is_set(post);
    c.depthwise = f.LREG_POST.DW_EN.is_set(post);
    const uint32_t ctl = reg.state.quadrant[lq].ctl;
    const bool fed_by_fast_fifo =
        reg.f.REG_CTL.FFIFO_EN.is_set(ctl) &&
        static_cast<int>(reg.f.REG_LCNT_MAX.START.get(reg.state.quadrant[lq].lcnt_max)) == c.layer;
    c.quad_fanout = fed_by_fast_fifo && reg.f.REG_CTL.QUPAC.is_set(ctl);
    c.calcx4 = f.LREG_POST.CALCX4.is_set(post) && reg.cfg.kernel_mem.calcx4_block_stride > 0;
    if (c.calcx4) c.calcx4_block = f.LREG_OCHAN.OCHAN_MAX.get(reg(lq, LREG_OCHAN)) + 1;
    c.broadcast = f.LREG_LCTL.BROADCAST.is_set(reg(lq, LREG_LCTL));
    c.passes = f.LREG_LCTL2.INPCHEXP.get(reg(lq, LREG_LCTL2)) + 1;
    // Flatten: XPMP_CNT holds the pass count's bits above INPCHEXP's.
    if (c.flatten) c.passes += f.LREG_POST.XPMP_CNT.get(post) << f.LREG_LCTL2.INPCHEXP.width;
    // calcx4 reads four bias bytes at once: the pointer counts 32-bit words.
    const uint32_t bias_unit = c.calcx4 ? kCalcx4Outputs : 1;
    for (int q : reg.quadrants) {
        const uint32_t qpost = reg(q, LREG_POST);
        if (f.LREG_POST.BPTR_EN.is_set(qpost)) c.biases.push_back({q, f.LREG_POST.BPTR_SAD.get(qpost) * bias_unit});
    }
}

// Kernel memory range, output channels per pass and output passes. The mask
// address runs through (output pass, channel, input pass); the last output
// pass may stop early when its upper channels are unused. calcx4 layers count
// their kernels by OCHAN_MAX: four blocks of calcx4_block.
bool decode_kernel_range(const LayerRegs& reg, LayerConfig& c) {
    const RegisterFields& f = reg.f;
    const int lq = c.lead_quadrant;
    const KernelRangeFields range = kernel_range_fields(f);
    c.mask_start = range.first.get(reg(lq, range.first_kind));
    c.mask_end = range.last.get(reg(lq, range.last_kind));
    c.channel_positions = f.LREG_LCTL2.XPCH_MAX.get(reg(lq, LREG_LCTL2)) / c.weight_bits + 1;
    if (!c.convolution) return true;
    if (c.mask_end < c.mask_start) {
        reg.warn(lq, range.last_kind, "mask end address below mask start; layer skipped");
        return false;
    }
    const uint32_t kernels =
        c.calcx4 ? kCalcx4Outputs * c.calcx4_block : (c.mask_end - c.mask_start) / c.weight_bits + 1;
    // Quad fan-out: the range counts one quadrant's kernels, and a quadrant
    // computes every quadrants-th output channel of a pass, so a pass takes
    // ceil(channels / quadrants) of its kernels (7 channels: 2, 2, 2 and 1).
    const uint32_t q = c.quad_fanout ? reg.cfg.quadrants : 1;
    const uint32_t per_pass = (c.channel_positions + q - 1) / q * c.passes;
    c.output_passes = (kernels + per_pass - 1) / per_pass;
    return true;
}

// HWC pixel pitch: MP_STRIDE counts the words of one pool stride.
void decode_pixel_pitch(const LayerRegs& reg, LayerConfig& c) {
    c.pixel_pitch = c.passes * c.operands;
    const uint32_t mp_stride = reg.f.LREG_STRIDE.MP_STRIDE.get(reg(c.lead_quadrant, LREG_STRIDE));
    // Flatten layers and 1x1 inputs read one pixel (the generator then counts the
    // passes before flattening); CHW reads four pixels a word.
    const bool one_pixel = c.flatten || (c.in_rows == 1 && c.in_cols == 1);
    if (mp_stride == 0 || c.chw_input || one_pixel) return;
    if (mp_stride % c.pool_stride != 0 || mp_stride / c.pool_stride < c.pixel_pitch) {
        reg.warn(c.lead_quadrant, LREG_STRIDE,
                 "multi-pass stride " + std::to_string(mp_stride) + " is not a multiple of the pool stride " +
                     std::to_string(c.pool_stride) + " of at least " + std::to_string(c.pixel_pitch) +
                     " words per pixel; reading " + std::to_string(c.pixel_pitch) + " words per pixel");
        return;
    }
    c.pixel_pitch = mp_stride / c.pool_stride;
}

// Read and write pointers; set bits above a pointer field point nowhere.
void decode_pointers(const LayerRegs& reg, LayerConfig& c) {
    const RegisterFields& f = reg.f;
    const int lq = c.lead_quadrant;
    for (const auto& [kind, field] : {std::pair<unsigned, RegField>{LREG_RPTR_BASE, f.LREG_RPTR_BASE.RPTR_BASE},
                                      std::pair<unsigned, RegField>{LREG_WPTR_BASE, f.LREG_WPTR_BASE.WPTR_BASE}})
        if (reg(lq, kind) & ~field.mask())
            reg.warn(lq, kind,
                     "pointer " + to_hex(reg(lq, kind)) + " has bits set above its " + std::to_string(field.width) +
                         "-bit field; the layer uses " + to_hex(field.get(reg(lq, kind))));
    c.read_base = f.LREG_RPTR_BASE.RPTR_BASE.get(reg(lq, LREG_RPTR_BASE));
    c.write_base = f.LREG_WPTR_BASE.WPTR_BASE.get(reg(lq, LREG_WPTR_BASE));
    const uint32_t skip = f.LREG_LCTL2.WPTR_INC.get(reg(lq, LREG_LCTL2));
    c.write_stride = (skip + 1) * (c.wide_output && c.convolution ? 4 : 1);
    c.write_pass_offset = f.LREG_WPTR_CHOFFS.WPTR_CHOFF.get(reg(lq, LREG_WPTR_CHOFFS));
    c.write_group_offset = c.convolution ? f.LREG_WPTR_MOFFS.WPTR_MOFF.get(reg(lq, LREG_WPTR_MOFFS))
                                         : f.LREG_WPTR_TOFFS.WPTR_TOFF.get(reg(lq, LREG_WPTR_TOFFS));
    c.quadrant_write_base.assign(reg.cfg.quadrants, 0);
    for (int q : reg.quadrants) c.quadrant_write_base[q] = f.LREG_WPTR_BASE.WPTR_BASE.get(reg(q, LREG_WPTR_BASE));
}

// The layer from its registers, every time.
std::optional<LayerConfig> decode_registers(const AcceleratorState& state, int layer,
                                            const std::vector<int>& enabled_quadrants,
                                            std::vector<EngineWarning>& warnings) {
    const RegisterFields& fields = register_fields(state.cfg);
    const LayerRegs reg{state, state.cfg, fields, layer, enabled_quadrants, warnings};
    LayerConfig c;
    c.layer = layer;
    decode_processors(reg, c);
    if (c.lead_quadrant < 0) {
        reg.warn(enabled_quadrants.empty() ? -1 : enabled_quadrants.front(), LREG_ENA,
                 "no processor enabled in any enabled quadrant; layer skipped");
        return std::nullopt;
    }
    decode_convolution(reg, c);
    if (!decode_counts(reg, c) || !decode_operation(reg, c) || !decode_pooling(reg, c)) return std::nullopt;
    decode_post(reg, c);
    if (!decode_kernel_range(reg, c)) return std::nullopt;
    decode_pixel_pitch(reg, c);
    decode_pointers(reg, c);
    return c;
}

// Everything decode_registers() reads besides the device description: the
// enabled quadrants, and of each one its control and layer count registers
// and its per-layer registers of `layer`.
void registers_of(const AcceleratorState& state, int layer, const std::vector<int>& quadrants,
                  std::vector<uint32_t>& values) {
    values.clear();
    values.push_back(static_cast<uint32_t>(quadrants.size()));
    for (int q : quadrants) {
        const QuadrantRegisters& r = state.quadrant[static_cast<std::size_t>(q)];
        values.insert(values.end(), {static_cast<uint32_t>(q), r.ctl, r.lcnt_max});
        for (const std::vector<uint32_t>& kind : r.lreg) values.push_back(kind[static_cast<std::size_t>(layer)]);
    }
}

}  // namespace

// One decoded layer per layer index, with the registers it came from.
struct LayerDecodeCache {
    struct Entry {
        bool filled = false;
        std::vector<uint32_t> registers;  // registers_of() when decoded
        std::optional<LayerConfig> config;
        std::vector<EngineWarning> warnings;
    };
    std::vector<Entry> layers;     // [layer]
    std::vector<uint32_t> lookup;  // registers_of() now
};

std::optional<LayerConfig> decode_layer(const AcceleratorState& state, int layer,
                                        const std::vector<int>& enabled_quadrants,
                                        std::vector<EngineWarning>& warnings) {
    if (layer < 0 || static_cast<uint32_t>(layer) >= state.cfg.max_layers)
        return decode_registers(state, layer, enabled_quadrants, warnings);
    // The layer engine and the timing walk decode each layer of an
    // inference, and every inference decodes the same registers again.
    if (!state.decoded_layers) state.decoded_layers = std::make_shared<LayerDecodeCache>();
    LayerDecodeCache& cache = *state.decoded_layers;
    cache.layers.resize(state.cfg.max_layers);
    LayerDecodeCache::Entry& entry = cache.layers[static_cast<std::size_t>(layer)];
    registers_of(state, layer, enabled_quadrants, cache.lookup);
    if (!entry.filled || entry.registers != cache.lookup) {
        entry.warnings.clear();
        entry.config = decode_registers(state, layer, enabled_quadrants, entry.warnings);
        entry.registers.swap(cache.lookup);
        entry.filled = true;
    }
    warnings.insert(warnings.end(), entry.warnings.begin(), entry.warnings.end());
    return entry.config;
}

}  // namespace ai8x
