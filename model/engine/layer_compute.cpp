#include "model/engine/layer_compute.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <memory>
#include <string>

#include "model/engine/conv_layout.h"
#include "model/engine/dot_kernel.h"
#include "model/engine/host_profile.h"
#include "model/engine/worker_pool.h"

namespace ai8x {

namespace {

// Host-side bound, not a chip property: the buffered results of one group of
// output blocks stay under this many bytes even for absurd programmed
// geometries (larger layers are computed a group of blocks at a time).
constexpr std::size_t kMaxBufferedBytes = std::size_t{1} << 22;

// Host-side threading threshold: a share of a layer's pixels handed to
// another thread is at least this many multiply lanes (padding included),
// 10-20 us of one core's work. The layer engine holds the pool while it runs
// the layers, so a worker spins for work and takes a share within 1-3 us
// (worker_pool.h; a sleeping worker took 25-40 us here, which is why this
// was 2^21 before). Smaller layers stay on one thread.
constexpr std::size_t kMinLanesPerShare = std::size_t{1} << 19;
// Shares per thread: items are claimed dynamically, so a few per thread even
// out a thread that starts late or is interrupted by other processes.
constexpr std::size_t kSharesPerThread = 4;

// The pixel count of one parallel share of `pixels` pixels that cost
// `lanes_per_pixel` each, or 0 when the work is too small to split (fewer
// than two shares of kMinLanesPerShare).
std::size_t parallel_share(std::size_t pixels, std::size_t lanes_per_pixel, unsigned threads) {
    if (threads < 2 || lanes_per_pixel == 0) return 0;
    const std::size_t least = (kMinLanesPerShare + lanes_per_pixel - 1) / lanes_per_pixel;
    const std::size_t balanced = (pixels + threads * kSharesPerThread - 1) / (threads * kSharesPerThread);
    const std::size_t share = std::max(least, balanced);
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
    const uint32_t quadrants = state.cfg.quadrants;
    for (const auto& b : cfg.biases) {
        if (!cfg.quad_fanout)
            sum += bias_byte(state, cfg, b.quadrant, uint64_t{b.offset} + o, warnings, warned);
        else if (o % quadrants == static_cast<uint32_t>(b.quadrant))  // each quadrant's own outputs
            sum += bias_byte(state, cfg, b.quadrant, uint64_t{b.offset} + o / quadrants, warnings, warned);
    }
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

// Every output's bias, read before any output is written. A bias warning is
// held back and reported just before the writes of the output that raised
// it, so warnings keep the order of a channel-by-channel computation.
struct LayerBiases {
    std::vector<int32_t> values;  // one per output, zeros up to whole blocks
    std::vector<EngineWarning> warnings;
    uint32_t warning_output;  // the output whose writes the warnings precede
};

LayerBiases layer_biases(const AcceleratorState& state, const LayerConfig& cfg, const LayerWeights& weights,
                         uint32_t blocks) {
    LayerBiases b{std::vector<int32_t>(std::size_t{blocks} * kBlockOutputs, 0), {}, weights.outputs};
    bool warned = false;
    for (uint32_t o = 0; o < weights.outputs; ++o) {
        // At most one scaled byte per quadrant (dot_kernel.h): int32 holds it.
        b.values[o] = static_cast<int32_t>(cfg.depthwise ? depthwise_bias(state, cfg, weights, o, b.warnings, warned)
                                                         : bias_for(state, cfg, o, b.warnings, warned));
        if (warned && b.warning_output == weights.outputs) b.warning_output = o;
    }
    return b;
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

// Computes every pixel of `p` into `results`, in shares over the pool's
// threads when the work is large enough; each pixel writes only its own row.
void compute_all_pixels(WorkerPool* pool, const ConvProblem& p, std::size_t pixels, void* results, int layer) {
    const std::size_t lanes = result_stride(p) * 2 * p.kernel_rows * p.row_pairs;
    const std::size_t share = pool ? parallel_share(pixels, lanes, pool->threads()) : 0;
    if (share == 0) return compute_pixels(p, 0, pixels, results);
    const std::size_t bytes = result_stride(p) * (p.wide ? sizeof(int32_t) : sizeof(int8_t));
    const bool shared = pool->for_each((pixels + share - 1) / share, [&](std::size_t item, unsigned) {
        const std::size_t first = item * share;
        compute_pixels(p, first, std::min(share, pixels - first), static_cast<char*>(results) + first * bytes);
    });
    if (shared)
        spdlog::debug("layer {}: shared by {} threads, {} pixels per share", layer, pool->threads(), share);
    else
        spdlog::debug("layer {}: kept on the calling thread (no spare core)", layer);
}

// Writes outputs [first, end) from `results` (rows of `stride` values, the
// first column being output `first`) in the order in which overlapping
// writes must land: channel by channel, pixel by pixel. 8-bit outputs go a
// group of up to four channel positions sharing their words at a time
// (OutputWriter::write8_group: the same memory as channel by channel).
// Output o is written at its slot (LayerWeights::slot).
void write_outputs(const LayerConfig& cfg, const LayerWeights& weights, const ConvProblem& p, const void* results,
                   uint32_t first, uint32_t end, std::size_t pixels, OutputWriter& out, LayerBiases& biases,
                   std::vector<EngineWarning>& warnings) {
    const std::size_t stride = result_stride(p);
    for (uint32_t o = first; o < end;) {
        const uint32_t slot = weights.slot(o);
        const uint32_t t = slot % cfg.channel_positions;
        const uint64_t pass_offset = uint64_t{slot / cfg.channel_positions} * cfg.write_pass_offset;
        // Outputs o .. o + n - 1: adjacent slots of the same pass and group of
        // four positions, no bias warning inside.
        uint32_t n = 1;
        while (!cfg.wide_output && o + n < end && (t + n) % 4 != 0 && t + n < cfg.channel_positions &&
               weights.slot(o + n) == slot + n && o + n != biases.warning_output)
            ++n;
        if (o == biases.warning_output) warnings.insert(warnings.end(), biases.warnings.begin(), biases.warnings.end());
        if (!cfg.wide_output) {
            const int8_t* columns = static_cast<const int8_t*>(results) + (o - first);
            out.write8_group(cfg.lead_quadrant, cfg.write_base, t, n, pass_offset, cfg.write_stride, columns, stride,
                             pixels);
        } else {
            const int32_t* column = static_cast<const int32_t*>(results) + (o - first);
            for (std::size_t k = 0; k < pixels; ++k)
                out.write32(cfg.lead_quadrant, cfg.write_base, t, k * cfg.write_stride + pass_offset,
                            column[k * stride]);
        }
        o += n;
    }
}

// The layer's operands for the kernel; `image`, `weights` and `biases` must
// outlive the result.
ConvProblem conv_problem(const LayerConfig& cfg, const ConvImage& image, const PackedWeights& weights,
                         const LayerBiases& biases, uint32_t out_cols) {
    ConvProblem p;
    if (weights.quads) {
        p.image_bytes = image.bytes.data();
        p.weight_bytes = weights.bytes.data();
    } else {
        p.image = image.values.data();
        p.weights = weights.values.data();
    }
    p.image_cols = image.cols;
    p.channels = image.channels;
    p.kernel_rows = weights.kernel_rows;
    p.row_pairs = weights.row_pairs;
    p.out_cols = out_cols;
    p.row_quads = weights.row_quads;
    p.blocks = weights.blocks;
    p.bias = biases.values.data();
    p.output_shift = cfg.output_shift;
    p.activation = cfg.activation;
    p.wide = cfg.wide_output;
    return p;
}

}  // namespace

void compute_convolution(const AcceleratorState& state, const LayerConfig& cfg, const ConvImage& image,
                         const LayerWeights& weights, const PackedWeights& packed, OutputWriter& out, LayerStats& stats,
                         std::vector<EngineWarning>& warnings) {
    if (image.rows < cfg.kernel_rows || image.cols < cfg.kernel_cols) {
        warnings.push_back(
            {cfg.lead_quadrant, cfg.layer, "LREG_RCNT", "padded input smaller than the kernel; nothing computed"});
        return;
    }
    stats.out_rows = image.rows - cfg.kernel_rows + 1;
    stats.out_cols = image.cols - cfg.kernel_cols + 1;
    const std::size_t pixels = std::size_t{stats.out_rows} * stats.out_cols;
    LayerBiases biases = layer_biases(state, cfg, weights, packed.blocks);
    const ConvProblem layer = conv_problem(cfg, image, packed, biases, stats.out_cols);

    // Groups of output blocks whose results fit the buffer, computed then written.
    const std::size_t block_bytes = pixels * kBlockOutputs * (cfg.wide_output ? sizeof(int32_t) : sizeof(int8_t));
    const uint32_t group = static_cast<uint32_t>(
        std::clamp<std::size_t>(kMaxBufferedBytes / block_bytes, 1, std::max<uint32_t>(packed.blocks, 1)));
    // Not zeroed first: the kernel writes every value of every row it computes.
    const std::unique_ptr<char[]> results(new char[std::size_t{group} * block_bytes]);
    for (uint32_t first = 0; first < packed.blocks; first += group) {
        ConvProblem part = layer;
        part.blocks = std::min(group, packed.blocks - first);
        if (packed.quads)
            part.weight_bytes = packed.block_bytes(first);
        else
            part.weights = packed.block(first);
        part.bias = biases.values.data() + std::size_t{first} * kBlockOutputs;
        host_lap(state.host_profile, HostStage::other);
        compute_all_pixels(state.compute_pool, part, pixels, results.get(), cfg.layer);
        host_lap(state.host_profile, HostStage::kernel);
        const uint32_t first_output = first * kBlockOutputs;
        const uint32_t end_output = std::min<uint32_t>(weights.outputs, first_output + part.blocks * kBlockOutputs);
        write_outputs(cfg, weights, part, results.get(), first_output, end_output, pixels, out, biases, warnings);
        host_lap(state.host_profile, HostStage::writes);
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
