#include "model/engine/layer_compute.h"

#include <string>

namespace ai8x {

namespace {

// Zero-padded copy of a plane: padding is inserted after pooling, so the
// kernel loops can run without bounds checks. With `spread` > 1 every value is
// followed by spread - 1 zeros in both directions (transposed convolution).
std::vector<int8_t> pad_plane(const std::vector<int8_t>& in, uint32_t rows, uint32_t cols,
                              uint32_t pad_r, uint32_t pad_c, uint32_t spread) {
    const uint32_t pc = cols * spread + 2 * pad_c;
    std::vector<int8_t> out(static_cast<std::size_t>(rows * spread + 2 * pad_r) * pc, 0);
    for (uint32_t r = 0; r < rows; ++r)
        for (uint32_t c = 0; c < cols; ++c)
            out[(r * spread + pad_r) * pc + c * spread + pad_c] = in[r * cols + c];
    return out;
}

// Bias of output channel index o: one byte per output channel from the
// quadrant(s) whose post-processing register enables bias.
int64_t bias_for(const AcceleratorState& state, const LayerConfig& cfg, uint32_t o,
                 std::vector<EngineWarning>& warnings, bool& warned) {
    int64_t sum = 0;
    for (const auto& b : cfg.biases) {
        const uint64_t index = uint64_t{b.offset} + o;
        const auto& mem = state.bias[b.quadrant];
        if (index >= mem.size()) {
            if (!warned)
                warnings.push_back({b.quadrant, cfg.layer, "LREG_POST",
                                    "bias address " + std::to_string(index) + " beyond bias memory; bias 0 used"});
            warned = true;
            continue;
        }
        sum += arith::scaled_bias(static_cast<int8_t>(mem[index]));
    }
    return sum;
}

// 32-bit output keeps the full accumulator (no shift, no saturation); the
// activation still removes negative values.
int32_t wide_result(int64_t acc, arith::Activation act) {
    if (acc < 0 && act == arith::Activation::ReLU) acc = 0;
    if (acc < 0 && act == arith::Activation::Abs) acc = -acc;
    return arith::wide_output(acc);
}

}  // namespace

void compute_convolution(const AcceleratorState& state, const LayerConfig& cfg, const InputPlanes& in,
                         const LayerWeights& weights, OutputWriter& out, LayerStats& stats,
                         std::vector<EngineWarning>& warnings) {
    const uint32_t spread = cfg.conv_transpose ? 2 : 1;
    const uint32_t prow = in.rows * spread + 2 * cfg.pad_rows;
    const uint32_t pcol = in.cols * spread + 2 * cfg.pad_cols;
    if (prow < cfg.kernel_rows || pcol < cfg.kernel_cols) {
        warnings.push_back({cfg.lead_quadrant, cfg.layer, "LREG_RCNT",
                            "padded input smaller than the kernel; nothing computed"});
        return;
    }
    const uint32_t orow = prow - cfg.kernel_rows + 1;
    const uint32_t ocol = pcol - cfg.kernel_cols + 1;
    stats.out_rows = orow;
    stats.out_cols = ocol;

    // Padded planes of the processors that carry weights, in weight order.
    std::vector<std::vector<std::vector<int8_t>>> planes(weights.processors);
    for (uint32_t i = 0; i < weights.processors; ++i)
        for (uint32_t j = 0; j < weights.passes; ++j)
            planes[i].push_back(pad_plane(in.plane(weights.processor_index[i], j), in.rows, in.cols,
                                          cfg.pad_rows, cfg.pad_cols, spread));

    const std::size_t pixels = static_cast<std::size_t>(orow) * ocol;
    std::vector<int64_t> acc(pixels);
    bool bias_warned = false;
    for (uint32_t o = 0; o < weights.outputs; ++o) {
        const uint32_t pass = o / cfg.channel_positions;
        const uint32_t t = o % cfg.channel_positions;
        std::fill(acc.begin(), acc.end(), bias_for(state, cfg, o, warnings, bias_warned));
        for (uint32_t i = 0; i < weights.processors; ++i) {
            for (uint32_t j = 0; j < weights.passes; ++j) {
                const int8_t* plane = planes[i][j].data();
                for (uint32_t tap = 0; tap < weights.taps; ++tap) {
                    const int64_t w = weights.at(o, i, j, tap);
                    if (w == 0) continue;
                    const uint32_t kr = tap / cfg.kernel_cols, kc = tap % cfg.kernel_cols;
                    for (uint32_t r = 0; r < orow; ++r) {
                        const int8_t* src = plane + (r + kr) * pcol + kc;
                        int64_t* dst = &acc[r * ocol];
                        for (uint32_t c = 0; c < ocol; ++c) dst[c] += w * src[c];
                    }
                }
            }
        }
        const uint64_t pass_offset = uint64_t{pass} * cfg.write_pass_offset;
        for (std::size_t n = 0; n < pixels; ++n) {
            const uint64_t offset = n * cfg.write_stride + pass_offset;
            if (cfg.wide_output) {
                out.write32(cfg.lead_quadrant, cfg.write_base, t, offset, wide_result(acc[n], cfg.activation));
            } else {
                out.write8(cfg.lead_quadrant, cfg.write_base, t, offset,
                           arith::finish_output(acc[n], cfg.output_shift, cfg.activation));
            }
        }
    }
    stats.macs = uint64_t{pixels} * weights.outputs * weights.processors * weights.passes * weights.taps;
    // Four 8-bit channels share a word; 32-bit outputs take one word each.
    const uint64_t words_per_pass = cfg.wide_output ? cfg.channel_positions : (cfg.channel_positions + 3) / 4;
    stats.output_writes = uint64_t{pixels} * cfg.output_passes * words_per_pass;
}

void compute_passthrough(const LayerConfig& cfg, const InputPlanes& in, OutputWriter& out, LayerStats& stats) {
    stats.out_rows = in.rows;
    stats.out_cols = in.cols;
    const std::size_t pixels = static_cast<std::size_t>(in.rows) * in.cols;
    // Output channel positions are the processors' ranks among the enabled
    // processors of their quadrant: passthrough packs sparse inputs densely.
    std::vector<uint32_t> rank(cfg.quadrant_write_base.size(), 0);
    for (std::size_t i = 0; i < cfg.processors.size(); ++i) {
        const LayerProcessor& p = cfg.processors[i];
        const uint32_t t = rank[p.quadrant]++;
        const uint32_t base = cfg.quadrant_write_base[p.quadrant];
        for (uint32_t j = 0; j < in.passes; ++j) {
            const std::vector<int8_t>& plane = in.plane(i, j);
            for (std::size_t n = 0; n < pixels; ++n) {
                const uint64_t offset = (n * in.passes + j) * cfg.write_stride;
                const int8_t v = arith::activate(plane[n], cfg.activation);
                if (cfg.wide_output) out.write32(p.quadrant, base, t, offset * 4, v);
                else out.write8(p.quadrant, base, t, offset, v);
            }
        }
    }
    for (uint32_t n : rank) {
        const uint64_t words_per_pixel = cfg.wide_output ? n : (n + 3) / 4;
        stats.output_writes += uint64_t{pixels} * in.passes * words_per_pixel;
    }
}

}  // namespace ai8x
