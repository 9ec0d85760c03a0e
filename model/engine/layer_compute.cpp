#include "model/engine/layer_compute.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <string>

#include "model/engine/conv_layout.h"
#include "model/engine/dot_kernel.h"
#include "model/engine/worker_pool.h"

namespace ai8x {

namespace {

// Host-side blocking sizes, not chip properties: the receptive-field rows of
// one pixel tile stay within a typical L2 cache, and the buffered results of
// one block of outputs stay bounded even for absurd programmed geometries.
constexpr std::size_t kTileBytes = std::size_t{128} * 1024;
constexpr std::size_t kMaxBufferedResults = std::size_t{1} << 22;

// Host-side threading threshold: a share of a layer's dot products handed to
// another thread is at least this many multiply lanes (int16 products, kernel
// padding included), about 0.1 ms of one core's work, so the hand-off (a few
// microseconds) stays small against it. Smaller layers stay on one thread.
constexpr std::size_t kMinLanesPerShare = std::size_t{1} << 20;
// Shares per thread: items are claimed dynamically, so a few per thread even
// out a thread that starts late or is interrupted by other processes.
constexpr std::size_t kSharesPerThread = 4;

// The pixel count of one parallel share of a block of outputs whose pixels
// each cost `lanes_per_pixel`, or 0 when the block is too small to split
// (fewer than two shares of kMinLanesPerShare). At most `tile`, the
// single-thread tile that keeps receptive fields in cache, unless that tile is
// less work than kMinLanesPerShare (few outputs).
std::size_t parallel_tile(std::size_t pixels, std::size_t tile, std::size_t lanes_per_pixel, unsigned threads) {
    if (threads < 2 || lanes_per_pixel == 0) return 0;
    const std::size_t least = (kMinLanesPerShare + lanes_per_pixel - 1) / lanes_per_pixel;
    const std::size_t balanced = (pixels + threads * kSharesPerThread - 1) / (threads * kSharesPerThread);
    const std::size_t share = std::max(least, std::min(tile, balanced));
    return (pixels + share - 1) / share >= 2 ? share : 0;
}

// One bias byte of a quadrant's bias memory, scaled; an address beyond the
// memory reads as bias 0 and is warned about once per layer.
int64_t bias_byte(const AcceleratorState& state, const LayerConfig& cfg, int quadrant, uint64_t index,
                  std::vector<EngineWarning>& warnings, bool& warned) {
    const auto& mem = state.bias[static_cast<std::size_t>(quadrant)];
    if (index < mem.size()) return arith::scaled_bias(static_cast<int8_t>(mem[index]));
    if (!warned)
        warnings.push_back({quadrant, cfg.layer, "LREG_POST",
                            "bias address " + std::to_string(index) + " beyond bias memory; bias 0 used"});
    warned = true;
    return 0;
}

// Bias of output channel index o: one byte per output channel from the
// quadrant(s) whose post-processing register enables bias.
int64_t bias_for(const AcceleratorState& state, const LayerConfig& cfg, uint32_t o,
                 std::vector<EngineWarning>& warnings, bool& warned) {
    int64_t sum = 0;
    for (const auto& b : cfg.biases) sum += bias_byte(state, cfg, b.quadrant, uint64_t{b.offset} + o, warnings, warned);
    return sum;
}

// Depth-wise bias (MAX78002; izer kbias.py): each quadrant's bias memory holds
// one byte per processor of the quadrant and pass, 16 per pass; in broadcast
// mode the generator stores them four-way interleaved (position (l % 4) * 4 +
// l / 4 holds processor l's) from BPTR_SAD * 4, otherwise in order from
// BPTR_SAD with the first quadrant's leading gap moved to its end.
int64_t depthwise_bias(const AcceleratorState& state, const LayerConfig& cfg, const LayerWeights& weights, uint32_t o,
                       std::vector<EngineWarning>& warnings, bool& warned) {
    const uint32_t i = o % weights.processors, pass = o / weights.processors;
    const LayerProcessor& p = cfg.processors[static_cast<std::size_t>(weights.processor_index[i])];
    const uint32_t per_quadrant = state.cfg.processors_per_quadrant;
    for (const auto& b : cfg.biases) {
        if (b.quadrant != p.quadrant) continue;
        const uint32_t l = static_cast<uint32_t>(p.local);
        // Without broadcast the generator moves the first quadrant's leading
        // unused processors to the end of that quadrant's bias block.
        const LayerProcessor& first = cfg.processors.front();
        const uint32_t gap = p.quadrant == first.quadrant ? static_cast<uint32_t>(first.local) : 0;
        const uint64_t position = cfg.broadcast ? (l % 4) * 4 + l / 4 : l - gap;
        const uint64_t index = uint64_t{b.offset} * (cfg.broadcast ? 4 : 1) + uint64_t{pass} * per_quadrant + position;
        return bias_byte(state, cfg, b.quadrant, index, warnings, warned);
    }
    return 0;
}

// 32-bit output keeps the full accumulator (no shift, no saturation); the
// activation still removes negative values.
int32_t wide_result(int64_t acc, arith::Activation act) {
    if (acc < 0 && act == arith::Activation::ReLU) acc = 0;
    if (acc < 0 && act == arith::Activation::Abs) acc = -acc;
    return arith::wide_output(acc);
}

// Activity of a convolution (docs/activity.md): every weight processor applies
// one kernel word per output channel, input pass and output pixel, reading its
// window from TRAM once per pass and pixel; each output channel and pixel
// reads one bias entry of every bias-enabled quadrant.
void count_convolution_activity(const AcceleratorState& state, const LayerConfig& cfg, const LayerWeights& weights,
                                uint64_t pixels) {
    const auto layer = static_cast<std::size_t>(cfg.layer);
    const uint64_t kernels = pixels * weights.outputs * weights.passes;
    for (uint32_t i = 0; i < weights.processors; ++i) {
        const int p = cfg.processors[static_cast<std::size_t>(weights.processor_index[i])].global;
        state.processor_activity[p].macs[layer] += kernels * weights.taps;
        state.kernel_arrays[p].activity.by_layer[layer].reads += kernels;
        state.tram_arrays[p].activity.by_layer[layer].reads += pixels * weights.passes * weights.taps;
    }
    for (const auto& b : cfg.biases)
        state.bias_arrays[b.quadrant].activity.by_layer[layer].reads += pixels * weights.outputs;
}

}  // namespace

void compute_convolution(const AcceleratorState& state, const LayerConfig& cfg, const InputPlanes& in,
                         const LayerWeights& weights, OutputWriter& out, LayerStats& stats,
                         std::vector<EngineWarning>& warnings) {
    const uint32_t spread = cfg.conv_transpose ? 2 : 1;
    const uint32_t prow = in.rows * spread + 2 * cfg.pad_rows;
    const uint32_t pcol = in.cols * spread + 2 * cfg.pad_cols;
    if (prow < cfg.kernel_rows || pcol < cfg.kernel_cols) {
        warnings.push_back(
            {cfg.lead_quadrant, cfg.layer, "LREG_RCNT", "padded input smaller than the kernel; nothing computed"});
        return;
    }
    const uint32_t orow = prow - cfg.kernel_rows + 1;
    const uint32_t ocol = pcol - cfg.kernel_cols + 1;
    stats.out_rows = orow;
    stats.out_cols = ocol;

    const ConvImage image = make_conv_image(in, weights, cfg.pad_rows, cfg.pad_cols, spread);
    const ConvWeightRows weight_rows = make_weight_rows(weights);
    ReceptiveFields fields(image, cfg.kernel_rows, cfg.kernel_cols, ocol, weight_rows.length);

    // Biases are needed before any output is written; a bias warning is held
    // back and reported just before the writes of the output that raised it,
    // so warnings keep the order of a channel-by-channel computation.
    bool bias_warned = false;
    std::vector<EngineWarning> bias_warnings;
    uint32_t bias_warning_output = weights.outputs;
    std::vector<int64_t> bias(weights.outputs);
    for (uint32_t o = 0; o < weights.outputs; ++o) {
        bias[o] = cfg.depthwise ? depthwise_bias(state, cfg, weights, o, bias_warnings, bias_warned)
                                : bias_for(state, cfg, o, bias_warnings, bias_warned);
        if (bias_warned && bias_warning_output == weights.outputs) bias_warning_output = o;
    }

    // Results are computed tile by tile (all outputs of a block per tile, so
    // each receptive field is gathered once) but written output-major, pixel by
    // pixel, the order in which overlapping writes must land.
    const std::size_t pixels = static_cast<std::size_t>(orow) * ocol;
    const std::size_t row_bytes = std::size_t{weight_rows.length} * sizeof(int16_t);
    const std::size_t tile = std::clamp<std::size_t>(kTileBytes / std::max<std::size_t>(row_bytes, 1), 1, pixels);
    const uint32_t block = static_cast<uint32_t>(
        std::clamp<std::size_t>(kMaxBufferedResults / pixels, 1, std::max<uint32_t>(weights.outputs, 1)));
    std::vector<int32_t> results(std::size_t{block} * pixels);
    // The dot products of `count` pixels from `first` whose receptive fields
    // are in `rows`, for outputs [first_output, end_output): each pixel's
    // results go to its own entries of `results`, whatever thread runs it.
    auto compute_tile = [&](const ReceptiveFields& rows, std::size_t first, std::size_t count, uint32_t first_output,
                            uint32_t end_output) {
        // Copied into locals: a store into the results could otherwise alias
        // the captured values and force the compiler to reload them.
        const std::size_t length = weight_rows.length, stride = pixels;
        const int64_t* const bias_values = bias.data();
        int32_t* const out_values = results.data();
        const bool wide = cfg.wide_output;
        const int shift = cfg.output_shift;
        const arith::Activation activation = cfg.activation;
        for (uint32_t o = first_output; o < end_output; o += kDotMaxRows) {
            const unsigned n = std::min<uint32_t>(kDotMaxRows, end_output - o);
            const int16_t* w[kDotMaxRows];
            for (unsigned r = 0; r < n; ++r) w[r] = weight_rows.row(o + r);
            int32_t* const dst = out_values + (o - first_output) * stride + first;
            for (std::size_t p = 0; p < count; ++p) {
                int64_t sums[kDotMaxRows];
                for (unsigned r = 0; r < n; ++r) sums[r] = bias_values[o + r];
                accumulate_dots(rows.row(p), w, n, length, sums);
                for (unsigned r = 0; r < n; ++r)
                    dst[r * stride + p] =
                        wide ? wide_result(sums[r], activation) : arith::finish_output(sums[r], shift, activation);
            }
        }
    };
    WorkerPool* pool = state.compute_pool;
    std::vector<ReceptiveFields> slot_fields;  // one gather buffer per thread of the pool
    for (uint32_t first_output = 0; first_output < weights.outputs; first_output += block) {
        const uint32_t end_output = std::min(weights.outputs, first_output + block);
        const std::size_t split =
            pool ? parallel_tile(pixels, tile, std::size_t{end_output - first_output} * weight_rows.length,
                                 pool->threads())
                 : 0;
        if (split == 0) {
            for (std::size_t first = 0; first < pixels; first += tile) {
                const std::size_t count = std::min(tile, pixels - first);
                fields.gather(first, count);
                compute_tile(fields, first, count, first_output, end_output);
            }
        } else {
            while (slot_fields.size() < pool->threads())
                slot_fields.emplace_back(image, cfg.kernel_rows, cfg.kernel_cols, ocol, weight_rows.length);
            const bool shared = pool->for_each((pixels + split - 1) / split, [&](std::size_t item, unsigned slot) {
                const std::size_t first = item * split, count = std::min(split, pixels - first);
                slot_fields[slot].gather(first, count);
                compute_tile(slot_fields[slot], first, count, first_output, end_output);
            });
            if (shared)
                spdlog::debug("layer {}: outputs {}..{} shared by {} threads, {} pixels per share", cfg.layer,
                              first_output, end_output - 1, pool->threads(), split);
            else
                spdlog::debug("layer {}: outputs {}..{} kept on the calling thread (no spare core)", cfg.layer,
                              first_output, end_output - 1);
        }
        for (uint32_t o = first_output; o < end_output; ++o) {
            if (o == bias_warning_output) warnings.insert(warnings.end(), bias_warnings.begin(), bias_warnings.end());
            const uint32_t t = o % cfg.channel_positions;
            const uint64_t pass_offset = uint64_t{o / cfg.channel_positions} * cfg.write_pass_offset;
            const int32_t* value = &results[(o - first_output) * pixels];
            if (!cfg.wide_output) {
                out.write8_series(cfg.lead_quadrant, cfg.write_base, t, pass_offset, cfg.write_stride, value, pixels);
                continue;
            }
            for (std::size_t n = 0; n < pixels; ++n)
                out.write32(cfg.lead_quadrant, cfg.write_base, t, n * cfg.write_stride + pass_offset, value[n]);
        }
    }
    stats.macs = uint64_t{pixels} * weights.outputs * weights.processors * weights.passes * weights.taps;
    count_convolution_activity(state, cfg, weights, pixels);
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
                if (cfg.wide_output)
                    out.write32(p.quadrant, base, t, offset * 4, v);
                else
                    out.write8(p.quadrant, base, t, offset, v);
            }
        }
    }
    for (uint32_t n : rank) {
        const uint64_t words_per_pixel = cfg.wide_output ? n : (n + 3) / 4;
        stats.output_writes += uint64_t{pixels} * in.passes * words_per_pixel;
    }
}

}  // namespace ai8x
