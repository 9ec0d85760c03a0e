#include "testbench/unit/model/random_layer_gen.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>

#include "model/arith.h"
#include "testbench/reference/reference_layer.h"

namespace ai8x::test {

namespace {

using reference::Op;
using reference::PoolType;

// Register kinds in the order of the MAX78000 per-layer register file. Kept
// here on purpose instead of including the engine's register table: the test
// must compose registers without the engine's help.
enum Kind : unsigned {
    kRcnt = 0,
    kCcnt = 1,
    kOned = 2,
    kPrcnt = 3,
    kPccnt = 4,
    kStride = 5,
    kWptrBase = 6,
    kWptrToffs = 7,
    kWptrMoffs = 8,
    kWptrChoffs = 9,
    kRptrBase = 10,
    kLctl = 11,
    kMcnt = 12,
    kTptr = 13,
    kEna = 14,
    kPost = 15,
    kLctl2 = 20
};

// The MAX78002's per-layer registers (izer tornadocnn.py DevAI87 LREG_*):
// layer-major, one word per kind inside each layer's block.
enum Kind87 : unsigned {
    k87Nxtlyr = 0,
    k87Rcnt = 1,
    k87Ccnt = 2,
    k87Oned = 3,
    k87Prcnt = 4,
    k87Pccnt = 5,
    k87Stride = 6,
    k87WptrBase = 7,
    k87WptrToffs = 8,
    k87WptrMoffs = 9,
    k87WptrChoffs = 10,
    k87RptrBase = 11,
    k87Lctl = 12,
    k87Lctl2 = 13,
    k87Mcnt1 = 14,
    k87Mcnt2 = 15,
    k87Ochan = 16,
    k87Tptr = 17,
    k87Ena = 18,
    k87Post = 19
};

// Bits of REG_CTL used by cnn_init()/cnn_start().
constexpr uint32_t kCtlRun = 1u << 0;
constexpr uint32_t kCtlClocks = 1u << 3;
constexpr unsigned kCtlMasterShift = 9;
constexpr uint32_t kCtlSlave = 1u << 11;
constexpr uint32_t kCtlPoolRound = 1u << 13;
constexpr uint32_t kCtlBinary = 1u << 30;  // MAX78002 TIMESHFT: 1-bit weights are -1/+1

// MAX78002 bit positions of the generator's composition (izer DevAI87 *_OFFS).
constexpr unsigned k87PadEnable = 15, k87PadCount = 13, k87CountDiff = 16;
constexpr unsigned k87XpchShift = 12, k87RprimeShift = 22, k87CprimeShift = 18;
constexpr uint32_t k87ReadAhead = 1u << 17, k87Bypass = 1u << 30, k87Tcalc = 1u << 31, k87Calcx4 = 1u << 29;

// REG_CTL as cnn_init()/cnn_start() write it before the run bits.
uint32_t control_value(const RandomLayer& l) {
    return kCtlClocks | (l.params.avg_rounding == arith::AvgPoolRounding::Round ? kCtlPoolRound : 0) |
           (l.binary ? kCtlBinary : 0);
}

// Register offsets of the quadrant control block (REG_CTL, REG_LCNT_MAX).
constexpr uint64_t kRegCtl = 0x0;
constexpr uint64_t kRegLcntMax = 0x8;

struct Rng {
    std::mt19937_64 gen;
    explicit Rng(uint64_t seed) : gen(seed) {}
    int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen); }
    bool chance(int percent) { return pick(0, 99) < percent; }
};

// Taps as stored in kernel memory. The generator programs a dilated 1-D kernel
// of k taps as one of (k - 1) * dilation + 1 taps with zeros in between.
int ksize(const RandomLayer& l) { return ((l.params.kernel[0] - 1) * l.params.dilation[0] + 1) * l.params.kernel[1]; }

// Weight (o, c, tap) as an unsigned field of weight_bits, 0 outside the layer.
uint32_t weight_field(const RandomLayer& l, int o, int c, int tap) {
    if (o >= l.weights.out_channels || c >= l.weights.in_channels) return 0;
    const int kw = l.params.kernel[1];
    const int d = l.params.dilation[0];  // 1 except for dilated 1-D kernels (kw == 1)
    if (tap % d != 0) return 0;
    const int8_t w = l.weights.at(o, c, tap / d / kw, tap / d % kw);
    if (l.binary) return w < 0 ? 1u : 0u;  // TIMESHFT: a stored 1 weighs -1, a stored 0 +1
    return static_cast<uint32_t>(static_cast<uint8_t>(w)) & ((1u << l.weight_bits) - 1);
}

// Kernel bytes of one processor in the order the generator streams them into
// consecutive kernel words: per group of 8/bits output channels, per input
// pass, the taps last to first; the 8/bits channels of a group share a byte
// (channel i of the group at bit i * bits).
std::vector<uint8_t> kernel_stream(const RandomLayer& l, int proc_index) {
    const int n = static_cast<int>(l.in_processors.size());
    const int qf = 8 / l.weight_bits;
    const int outputs = l.out_passes * l.out_positions;
    // calcx4: izer kernels.py streams the outputs reshaped (outputs / 4, 4) and
    // transposed, so stream position m holds output (m % (outputs / 4)) * 4 + m / (outputs / 4).
    const auto output_at = [&](int m) { return l.calcx4 ? m % (outputs / 4) * 4 + m / (outputs / 4) : m; };
    std::vector<uint8_t> bytes;
    for (int e = 0; e < l.out_passes; ++e)
        for (int pos = 0; pos < l.out_positions; pos += qf)
            for (int pass = 0; pass < l.in_passes; ++pass) {
                const int c = pass * n + proc_index;
                for (int t = ksize(l) - 1; t >= 0; --t) {
                    uint32_t b = 0;
                    for (int i = 0; i < qf; ++i)
                        b |= weight_field(l, output_at(e * l.out_positions + pos + i), c, t) << (i * l.weight_bits);
                    bytes.push_back(static_cast<uint8_t>(b));
                }
            }
    return bytes;
}

// calcx4 kernels per block: the layer's kernels (all outputs times passes), a quarter each.
uint32_t calcx4_block_kernels(const RandomLayer& l) {
    return static_cast<uint32_t>(l.out_positions * l.out_passes * l.in_passes) / 4;
}

// Kernel memory word of word w of a processor's kernel stream: consecutive
// from kernel_word, or (calcx4, izer apbaccess.write_kern) block w / B at
// w % B + kernel_word / 4, blocks `block_stride` words apart.
uint32_t kernel_stream_word(const RandomLayer& l, uint32_t w, uint32_t block_stride) {
    if (!l.calcx4) return l.kernel_word + w;
    const uint32_t b = calcx4_block_kernels(l);
    return w / b * block_stride + w % b + l.kernel_word / 4;
}

uint32_t kernel_words_needed(const RandomLayer& l) {
    const int qf = 8 / l.weight_bits;
    const uint32_t bytes =
        static_cast<uint32_t>(l.out_passes * ((l.out_positions + qf - 1) / qf) * l.in_passes * ksize(l));
    return (bytes + 8) / 9;
}

uint32_t output_words(const RandomLayer& l, const reference::Pair& out) {
    return static_cast<uint32_t>(out[0] * out[1] * l.out_passes * (l.write_gap + 1) * (l.params.wide_output ? 4 : 1));
}

bool is_pooling_window(const reference::LayerParams& p) { return p.pool_size[0] > 1 || p.pool_size[1] > 1; }

// LREG_PRCNT/PCCNT as izer composes them: (pool - 1) * dilation, with the
// MAX78002's dilation - 1 at CNT_INC_OFFS 4.
uint32_t pool_count(const reference::LayerParams& p, int axis, bool m87) {
    const int d = p.pool_dilation[axis];
    return static_cast<uint32_t>((p.pool_size[axis] - 1) * d) | (m87 ? static_cast<uint32_t>(d - 1) << 4 : 0u);
}

}  // namespace

bool max78002_layout(const DeviceConfig& cfg) {
    return cfg.registers && cfg.registers->find_layer_register("LREG_MCNT1") != nullptr;
}

std::string RandomLayer::describe() const {
    std::ostringstream s;
    s << "seed " << seed << ": " << reference::describe(params) << " input " << inputs.size() << " x "
      << inputs.front().shape_string() << ", " << weight_bits << "-bit weights, " << in_processors.size()
      << " processors x " << in_passes << " passes" << (chw ? " CHW" : " HWC") << " (first "
      << (in_processors.empty() ? -1 : in_processors.front()) << "), outputs from processor " << out_first_processor
      << " (" << out_positions << " x " << out_passes << " passes), rptr " << in_word << ", wptr " << out_word
      << ", gap " << write_gap << ", kernel word " << kernel_word << ", bias "
      << (bias.empty() ? std::string("none") : "q" + std::to_string(bias_quadrant) + "+" + std::to_string(bias_offset));
    s << ", layer " << layer << (binary ? ", binary" : "") << (bypass ? ", bypass" : "")
      << (read_ahead ? ", read-ahead" : "")
      << (calcx4 ? (calcx4_one_block ? ", calcx4 (one-block range)" : ", calcx4") : "");
    if (snoop_unit)
        s << ", snoop " << snoop_unit << (snoop_range ? " range" : " word") << (snoop_hit ? " (hit)" : " (miss)");
    if (params.pool_dilation[0] > 1 || params.pool_dilation[1] > 1)
        s << ", pool dilation " << params.pool_dilation[0] << "x" << params.pool_dilation[1];
    return s.str();
}

RandomLayer generate_random_layer(uint64_t seed, const DeviceConfig& cfg) {
    Rng r(seed);
    const int procs_total = static_cast<int>(cfg.processors_total());
    const int share = static_cast<int>(cfg.processors_per_data_sram);
    const bool m87 = max78002_layout(cfg);
    for (int attempt = 0; attempt < 1000; ++attempt) {
        RandomLayer l;
        l.seed = seed;
        reference::LayerParams& p = l.params;

        const int kind = r.pick(0, 99);
        if (kind < 10) {
            // Transposed 3x3 convolution, stride 2, the generator's only form
            // (PyTorch padding 1, output_padding 1: output twice the input).
            p.op = Op::ConvTranspose2d;
            p.kernel = {3, 3};
        } else if (kind < 45) {
            p.op = Op::Conv2d;
            p.kernel = {3, 3};
        } else if (kind < 70) {
            p.op = Op::Conv2d;
            p.kernel = {1, 1};
        } else if (kind < 92) {
            p.op = Op::Conv1d;
            p.kernel = {r.pick(1, 9), 1};
        } else {
            p.op = Op::Passthrough;
            p.kernel = {1, 1};
        }
        const bool oned = p.op == Op::Conv1d;
        const bool passthrough = p.op == Op::Passthrough;
        const int wb = r.pick(0, 99);
        l.weight_bits = (passthrough || wb < 55) ? 8 : wb < 70 ? 4 : wb < 85 ? 2 : 1;

        // Input processors and passes. Narrow weights pack several output
        // channels per byte; the generator interleaves passes into that packing,
        // which this generator does not reproduce, so they stay single-pass.
        const int n = r.chance(25) ? r.pick(1, procs_total) : r.pick(1, 16);
        l.in_passes = (l.weight_bits == 8 && r.chance(30)) ? r.pick(2, 4) : 1;
        const int in_ch = l.in_passes == 1 ? n : r.pick((l.in_passes - 1) * n + 1, l.in_passes * n);
        std::vector<int> all(procs_total);
        std::iota(all.begin(), all.end(), 0);
        std::shuffle(all.begin(), all.end(), r.gen);
        l.in_processors.assign(all.begin(), all.begin() + n);
        // CHW input: each channel fills its own memory instance, so at most one
        // processor per instance; the generator loads it single-pass only.
        const int instances = procs_total / share;
        if (!passthrough && l.in_passes == 1 && n <= instances && r.chance(25)) {
            l.chw = true;
            std::vector<int> inst(instances);
            std::iota(inst.begin(), inst.end(), 0);
            std::shuffle(inst.begin(), inst.end(), r.gen);
            for (int i = 0; i < n; ++i) l.in_processors[i] = inst[i] * share + r.pick(0, share - 1);
        }
        std::sort(l.in_processors.begin(), l.in_processors.end());
        if (passthrough) {
            const int ppq = static_cast<int>(cfg.processors_per_quadrant);
            l.passthrough_out_start.assign(cfg.quadrants, 0);
            for (uint32_t q = 0; q < cfg.quadrants; ++q) {
                int k = 0;
                for (int pr : l.in_processors) k += pr / ppq == static_cast<int>(q);
                l.passthrough_out_start[q] = r.pick(0, (ppq - k) / share) * share;
            }
        }

        // calcx4 (MAX78002): 3x3 8-bit convolutions whose output channels fill
        // whole passes in groups of four (izer kernels.py reorders them by four).
        l.calcx4 = m87 && p.op == Op::Conv2d && p.kernel[0] == 3 && l.weight_bits == 8 && r.chance(20);
        l.calcx4_one_block = l.calcx4 && r.chance(50);
        // Output channels on consecutive processors starting at an instance boundary.
        l.out_positions = r.chance(20) ? r.pick(1, procs_total) : r.pick(1, 16);
        if (l.calcx4) l.out_positions = 4 * r.pick(1, r.chance(30) ? procs_total / 4 : 4);
        // Output expansion (narrow weights pack channels across passes differently; 8-bit only).
        l.out_passes = (l.weight_bits == 8 && r.chance(l.calcx4 ? 30 : 15)) ? r.pick(2, 4) : 1;
        const int out_ch = l.out_passes == 1 || l.calcx4
                               ? l.out_passes * l.out_positions
                               : r.pick((l.out_passes - 1) * l.out_positions + 1, l.out_passes * l.out_positions);
        const int first_max = (procs_total - l.out_positions) / share;
        l.out_first_processor = r.pick(0, first_max) * share;
        p.out_channels = out_ch;

        // Geometry.
        const int h = oned ? r.pick(1, 40) : r.pick(1, 12);
        const int w = oned ? 1 : r.pick(1, 12);
        if (passthrough) {
            p.padding = {0, 0};
        } else if (p.op == Op::ConvTranspose2d) {
            p.padding = {1, 1};
            p.output_padding = {1, 1};
        } else if (oned) {
            p.padding = {r.pick(0, 2), 0};
        } else if (p.kernel[0] == 3) {
            p.padding = {r.pick(0, 2), r.pick(0, 2)};
        } else {
            p.padding = r.chance(80) ? reference::Pair{0, 0} : reference::Pair{r.pick(0, 2), r.pick(0, 2)};
        }
        p.stride = p.op == Op::ConvTranspose2d ? reference::Pair{2, 2} : reference::Pair{1, 1};
        p.dilation = {1, 1};
        if (oned && p.kernel[0] > 1 && r.chance(30)) {
            // Dilation that still fits the nine taps of one kernel word.
            const int max_d = 8 / (p.kernel[0] - 1);
            if (max_d >= 2) p.dilation = {r.pick(2, max_d), 1};
        }

        // Pooling before the operation.
        const int pk = p.op == Op::ConvTranspose2d ? 0 : r.pick(0, 99);  // no pooling before upsampling
        if (pk < 40) {
            p.pool = PoolType::None;
        } else {
            p.pool = pk < 70 ? PoolType::Max : PoolType::Avg;
            const int limit_h = std::min(h, r.chance(15) ? 16 : 4);
            const int limit_w = std::min(w, r.chance(15) ? 16 : 4);
            p.pool_size = {r.pick(1, limit_h), oned ? 1 : r.pick(1, limit_w)};
            if (p.pool_size[0] == 1 && p.pool_size[1] == 1) p.pool = PoolType::None;
            const int s = r.pick(1, r.chance(15) ? 16 : 4);
            p.pool_stride = {s, oned ? 1 : s};
            if (!oned && p.pool == PoolType::Avg && r.chance(50)) p.avg_rounding = arith::AvgPoolRounding::Round;
        }
        // MAX78002 pool dilation: a two-wide window along a dilated axis (the
        // generator's row/column counts use pool + dilation - 1 for its span).
        if (m87 && p.pool != PoolType::None && !oned && r.chance(25))
            for (int axis = 0; axis < 2; ++axis)
                if (p.pool_size[axis] == 2 && (axis == 0 ? h : w) >= 4 && r.chance(70))
                    p.pool_dilation[axis] = r.pick(2, std::min(3, (axis == 0 ? h : w) - 1));
        if (p.pool == PoolType::None) {
            p.pool_size = {1, 1};
            // Without a pooling window the stride still subsamples the input.
            const int s = (p.op != Op::ConvTranspose2d && r.chance(15)) ? r.pick(2, 3) : 1;
            p.pool_stride = {s, oned ? 1 : s};
        }

        // Element-wise operands combined before the convolution (pooled first or not).
        const int operands = !l.chw && r.chance(25) ? (r.chance(80) ? r.pick(2, 4) : r.pick(5, 16)) : 1;
        if (operands > 1) {
            const int fn = r.pick(0, 3);
            p.eltwise = fn == 0   ? arith::EltwiseOp::Add
                        : fn == 1 ? arith::EltwiseOp::Sub
                        : fn == 2 ? arith::EltwiseOp::Xor
                                  : arith::EltwiseOp::Or;
            p.pool_first = r.chance(50);
        }

        const int act = r.pick(0, 2);
        p.activation = act == 0 ? arith::Activation::None : act == 1 ? arith::Activation::ReLU : arith::Activation::Abs;
        if (passthrough) p.activation = arith::Activation::None;  // the generator's passthrough has none
        p.wide_output = !passthrough && r.chance(10);
        if (p.wide_output) p.activation = arith::Activation::None;  // the generator rejects both together
        p.output_shift = (p.wide_output || passthrough) ? 0 : r.pick(-4, 4);

        reference::Pair out{};
        try {
            out = reference::output_size(h, w, p);
            const reference::Pair pooled = reference::pooled_size(h, w, p);
            if (p.op != Op::ConvTranspose2d && (pooled[0] + 2 * p.padding[0] < (p.kernel[0] - 1) * p.dilation[0] + 1 ||
                                                pooled[1] + 2 * p.padding[1] < p.kernel[1]))
                continue;
        } catch (const std::exception&) {
            continue;  // pooled input smaller than the kernel: draw again
        }
        if (out[0] < 1 || out[1] < 1) continue;

        // Memory placement: input and output regions must not overlap.
        l.write_gap = r.chance(25) ? r.pick(1, 3) : 0;
        const uint32_t words = cfg.data_sram.words;
        const uint32_t in_len =
            l.chw ? static_cast<uint32_t>((h * w + 3) / 4) : static_cast<uint32_t>(h * w * l.in_passes * operands);
        if (passthrough) {
            // Passthrough writes every input pass and packs channels per quadrant.
            l.out_positions = n;
            l.out_passes = l.in_passes;
            l.out_first_processor = 0;
            p.out_channels = in_ch;
            out = reference::pooled_size(h, w, p);
        }
        const uint32_t out_len = output_words(l, out);
        if (in_len + out_len > words) continue;
        l.in_word = static_cast<uint32_t>(r.pick(0, static_cast<int>(words - in_len)));
        bool placed = false;
        for (int tries = 0; tries < 50 && !placed; ++tries) {
            l.out_word = static_cast<uint32_t>(r.pick(0, static_cast<int>(words - out_len)));
            placed = l.out_word + out_len <= l.in_word || l.in_word + in_len <= l.out_word;
        }
        if (!placed) continue;

        // MAX78002 features: where the layer sits among the 128, kernel bypass
        // (a plain 8-bit single-pass convolution whose weights are all 1),
        // binary 1-bit weights, read-ahead.
        if (m87) {
            l.layer = r.pick(0, static_cast<int>(cfg.max_layers) - 1);
            l.bypass =
                !passthrough && !l.calcx4 && l.weight_bits == 8 && l.in_passes == 1 && l.out_passes == 1 && r.chance(8);
            l.binary = l.weight_bits == 1 && r.chance(60);
            l.read_ahead = r.chance(30);
            if (!passthrough && r.chance(25)) {
                l.snoop_unit = r.pick(1, 2);
                l.snoop_hit = r.chance(70);
                l.snoop_range = r.chance(40);
            }
        }

        // Kernel memory: a multiple of four words, as the generator allocates,
        // inside the smallest kernel memory of the used processors.
        uint32_t kernel_limit = cfg.kernel_mem.words;
        for (int pr : l.in_processors)
            kernel_limit = std::min(kernel_limit, cfg.kernel_mem.words_of(static_cast<uint32_t>(pr) %
                                                                          cfg.kernel_mem.instances_per_quadrant));
        const uint32_t kwords = l.bypass ? 0 : kernel_words_needed(l);
        if (kwords > kernel_limit) continue;
        l.kernel_word =
            l.bypass ? 0 : static_cast<uint32_t>(r.pick(0, static_cast<int>((kernel_limit - kwords) / 4))) * 4;
        if (l.calcx4) {
            // Each block starts at kernel_word / 4 and must fit before the next one.
            const uint32_t stride = cfg.kernel_mem.calcx4_block_stride, per_block = calcx4_block_kernels(l);
            if (per_block > stride || 3 * stride + stride > kernel_limit) continue;
            l.kernel_word = static_cast<uint32_t>(r.pick(0, static_cast<int>(stride - per_block))) * 4;
        }

        // Data.
        l.inputs.assign(operands, reference::Tensor(in_ch, h, w));
        for (auto& t : l.inputs)
            for (auto& v : t.values) v = r.pick(arith::kDataMin, arith::kDataMax);
        l.weights = reference::Weights(out_ch, in_ch, p.kernel[0], p.kernel[1]);
        const arith::WeightFormat fmt = arith::weight_format_from_quantization(l.weight_bits);
        for (auto& v : l.weights.values)
            v = l.bypass   ? int8_t{1}
                : l.binary ? static_cast<int8_t>(r.chance(50) ? 1 : -1)
                           : static_cast<int8_t>(r.pick(arith::weight_min(fmt), arith::weight_max(fmt)));
        if (passthrough) {
            l.weights = reference::Weights();
        } else if (r.chance(60)) {
            l.bias.resize(out_ch);
            for (auto& b : l.bias) b = static_cast<int8_t>(r.pick(-128, 127));
            const std::vector<int> quads = used_quadrants(l, cfg);
            l.bias_quadrant = quads[r.pick(0, static_cast<int>(quads.size()) - 1)];
            // The processors also compute (and read bias for) the unused positions
            // of a last partial output pass, so keep all of them inside bias memory.
            const int bias_span = l.out_positions * l.out_passes;
            l.bias_offset = static_cast<uint32_t>(r.pick(0, static_cast<int>(cfg.bias_mem.words) - bias_span));
            if (l.calcx4) l.bias_offset &= ~3u;  // izer rounds it up to a word: the register counts words
        }
        return l;
    }
    throw std::runtime_error("seed " + std::to_string(seed) + ": no legal layer found in 1000 draws");
}

std::vector<int> used_quadrants(const RandomLayer& l, const DeviceConfig& cfg) {
    std::set<int> q;
    const int ppq = static_cast<int>(cfg.processors_per_quadrant);
    for (int p : l.in_processors) q.insert(p / ppq);
    if (l.params.op != Op::Passthrough)
        for (int m = 0; m < l.out_positions; ++m) q.insert((l.out_first_processor + m) / ppq);
    if (l.bias_quadrant >= 0) q.insert(l.bias_quadrant);
    return {q.begin(), q.end()};
}

std::vector<BusWrite> compose_layer_writes(const RandomLayer& l, const DeviceConfig& cfg) {
    const reference::LayerParams& p = l.params;
    const std::vector<int> quads = used_quadrants(l, cfg);
    const int ppq = static_cast<int>(cfg.processors_per_quadrant);
    const int share = static_cast<int>(cfg.processors_per_data_sram);
    const int instances_per_quadrant = static_cast<int>(cfg.data_sram.instances_per_quadrant);
    const int instance_shift = static_cast<int>(cfg.data_sram.pointer_shift());  // write pointer: instance field
    const bool m87 = max78002_layout(cfg);
    const int h = l.inputs.front().height, w = l.inputs.front().width;
    const int operands = static_cast<int>(l.inputs.size());
    const bool oned = p.op == Op::Conv1d;
    const int last_out = l.out_first_processor + l.out_positions - 1;
    const bool transpose = p.op == Op::ConvTranspose2d;
    const int up = transpose ? p.stride[0] : 1;  // rows/columns count the upsampled input
    const bool passthrough = p.op == Op::Passthrough;
    auto procs_in = [&](int q) {
        int k = 0;
        for (int pr : l.in_processors) k += pr / ppq == q;
        return k;
    };

    std::vector<BusWrite> out;
    auto qreg = [&](int q, uint64_t offset) {
        return cfg.quadrant_regs.base + q * cfg.quadrant_regs.quadrant_stride + offset;
    };
    auto lreg = [&](int q, unsigned kind) {
        return qreg(q, cfg.layer_register_offset + uint64_t{kind} * cfg.layer_register_stride +
                           uint64_t(l.layer) * cfg.layer_register_layer_stride);
    };

    // cnn_init(): clocks on, one layer (MAX78002: starting and ending at l.layer).
    const uint32_t ctl = control_value(l);
    const uint32_t lcnt = static_cast<uint32_t>(l.layer) << 8 | static_cast<uint32_t>(l.layer);
    for (int q : quads) {
        out.push_back({qreg(q, kRegCtl), ctl, 4});
        out.push_back({qreg(q, kRegLcntMax), lcnt, 4});
    }

    // cnn_configure(): the generator's register composition for layer 0.
    const int qf_bits = l.weight_bits;
    const int ks = ksize(l);
    const uint32_t kern_bytes = 9 * l.kernel_word;
    // calcx4: izer calcx4_index() of the kernel offset, a multiple of 4: its quarter.
    const uint32_t koffs = l.calcx4 ? l.kernel_word / 4 * 8 : kern_bytes / static_cast<uint32_t>(ks) * 8;
    const uint32_t oned_sad = kern_bytes % static_cast<uint32_t>(ks);
    // Bypass: no kernels; the mask range counts the output channels in 8-bit steps.
    // calcx4 at a network's first layer: the range of one block.
    uint32_t kern_count = l.bypass ? static_cast<uint32_t>(p.out_channels)
                                   : static_cast<uint32_t>(l.out_positions * l.out_passes * l.in_passes);
    if (l.calcx4_one_block) kern_count /= 4;
    const uint32_t mcnt_last = koffs + (kern_count - 1) * static_cast<uint32_t>(l.bypass ? 8 : qf_bits);
    const uint32_t mcnt = koffs << 16 | mcnt_last;
    uint32_t oned_reg = 0;
    if (oned)
        oned_reg = static_cast<uint32_t>(ks) << 8 | 1u << 12 | oned_sad << 4;
    else if (p.kernel[0] == 1 && (!passthrough || operands == 1))
        oned_reg = 1u << 8;
    if (passthrough) {
        // Time slots: groups of four channels of the busiest quadrant.
        int tscnt = 0;
        for (int q : quads) tscnt = std::max(tscnt, (procs_in(q) - 1) / 4);
        oned_reg |= static_cast<uint32_t>(std::max(tscnt, 0));
    }
    if (operands > 1) {
        // Element-wise function codes as the generator numbers them.
        const uint32_t fn = p.eltwise == arith::EltwiseOp::Sub   ? 0
                            : p.eltwise == arith::EltwiseOp::Add ? 1
                            : p.eltwise == arith::EltwiseOp::Or  ? 2
                                                                 : 3;
        oned_reg |= 1u << 13 | fn << 14 | static_cast<uint32_t>(operands - 1) << 18;
        if (is_pooling_window(p) && p.pool_first) oned_reg |= 1u << 16;
        if (p.op == Op::Conv2d || transpose) oned_reg |= 1u << 17;
    }
    uint32_t sources = 0;
    for (int q : quads)
        for (int pr : l.in_processors)
            if (pr / ppq == q && q != quads.front()) sources |= 1u << q;
    const uint32_t quant_code = qf_bits == 1 ? 1 : qf_bits == 2 ? 2 : qf_bits == 4 ? 3 : 0;

    for (int q : quads) {
        // The MAX78000's kind numbers, moved to the MAX78002's slots where that layout applies.
        auto slot = [&](unsigned kind) -> unsigned {
            if (!m87) return kind;
            switch (kind) {
                case kRcnt: return k87Rcnt;
                case kCcnt: return k87Ccnt;
                case kOned: return k87Oned;
                case kPrcnt: return k87Prcnt;
                case kPccnt: return k87Pccnt;
                case kStride: return k87Stride;
                case kWptrBase: return k87WptrBase;
                case kWptrToffs: return k87WptrToffs;
                case kWptrMoffs: return k87WptrMoffs;
                case kWptrChoffs: return k87WptrChoffs;
                case kRptrBase: return k87RptrBase;
                case kLctl: return k87Lctl;
                case kTptr: return k87Tptr;
                case kEna: return k87Ena;
                case kPost: return k87Post;
                case kLctl2: return k87Lctl2;
                default: throw std::logic_error("no MAX78002 slot for kind " + std::to_string(kind));
            }
        };
        auto put = [&](unsigned kind, uint32_t v) { out.push_back({lreg(q, slot(kind)), v, 4}); };
        auto put87 = [&](unsigned kind87, uint32_t v) { out.push_back({lreg(q, kind87), v, 4}); };
        if (m87) {
            // Rows and columns (izer max7800x.py, CNT_DIFF_OFFS): the start of the
            // last pooling window in the unpadded input, the step from there, and
            // padding - 1 with its enable.
            const int in_row = up * h, in_col = up * w;
            const int ps_r = p.pool_stride[0], ps_c = p.pool_stride[1];
            const int span_r = p.pool_size[0] + p.pool_dilation[0] - 1,
                      span_c = p.pool_size[1] + p.pool_dilation[1] - 1;
            const int diff_r = in_row - ((in_row - span_r) / ps_r) * ps_r;
            const int diff_c = in_col - ((in_col - span_c) / ps_c) * ps_c;
            const int row_step = ((oned ? 1 : diff_c) + (ps_r - 1) * in_col) * operands * l.in_passes;
            uint32_t rcnt = static_cast<uint32_t>(in_row - diff_r) | static_cast<uint32_t>(row_step) << k87CountDiff;
            if (p.padding[0] > 0) rcnt |= 1u << k87PadEnable | static_cast<uint32_t>(p.padding[0] - 1) << k87PadCount;
            uint32_t ccnt = static_cast<uint32_t>(in_col - diff_c) | static_cast<uint32_t>(diff_c) << k87CountDiff;
            if (p.padding[1] > 0) ccnt |= 1u << k87PadEnable | static_cast<uint32_t>(p.padding[1] - 1) << k87PadCount;
            put(kRcnt, rcnt);
            put(kCcnt, ccnt);
        } else {
            put(kRcnt, static_cast<uint32_t>(up * h - 1 + 2 * p.padding[0]) | static_cast<uint32_t>(p.padding[0])
                                                                                  << 16);
            put(kCcnt, static_cast<uint32_t>(up * w - 1 + 2 * p.padding[1]) | static_cast<uint32_t>(p.padding[1])
                                                                                  << 16);
        }
        put(kOned, oned_reg);
        put(kPrcnt, pool_count(p, 0, m87));
        put(kPccnt, pool_count(p, 1, m87));
        put(kStride, static_cast<uint32_t>(transpose ? 0 : p.pool_stride[0] - 1) |
                         static_cast<uint32_t>(p.pool_stride[0] * operands * l.in_passes) << 4);
        if (passthrough) {
            // Each quadrant writes its own channels from its own output start.
            const uint32_t inst = procs_in(q) ? static_cast<uint32_t>(q * ppq + l.passthrough_out_start[q]) / share : 0;
            put(kWptrBase, l.out_word | inst << instance_shift);
            const bool wide_step = l.in_processors.size() > 4 || (operands > 1 && l.in_passes > 1);
            const uint32_t window = 1u << instance_shift;  // izer INSTANCE_SIZE * 4
            put(kWptrToffs, wide_step ? window : window / static_cast<uint32_t>(share));
        } else {
            put(kWptrBase, l.out_word | static_cast<uint32_t>(l.out_first_processor / share) << instance_shift);
            put(kWptrToffs, (!oned && p.kernel[0] == 1) ? 1u : 0u);
        }
        put(kWptrMoffs, 1u << instance_shift);
        put(kWptrChoffs, p.wide_output ? 4u : 1u);
        put(kRptrBase, l.in_word);
        uint32_t lctl = 0x20 | 0x800;  // master, data from all quadrants
        if (p.activation == arith::Activation::ReLU) lctl |= 0x200;
        if (p.pool != PoolType::Avg) lctl |= 0x100;
        if (is_pooling_window(p)) lctl |= 0x80;
        if (p.wide_output) lctl |= 1u << 16;
        if (l.chw) lctl |= 0x40;
        if (q == quads.front() && !passthrough) lctl |= sources << 12;
        if (m87 && !passthrough) {
            // Kernel shape (RPRIME/CPRIME): rows of taps as stored, columns.
            lctl |= static_cast<uint32_t>(ksize(l) / p.kernel[1] - 1) << k87RprimeShift |
                    static_cast<uint32_t>(p.kernel[1] - 1) << k87CprimeShift;
        }
        if (l.read_ahead) lctl |= k87ReadAhead;
        if (l.bypass) lctl |= k87Bypass;
        put(kLctl, lctl);
        if (!m87) {
            put(kMcnt, passthrough ? 0u : mcnt);
        } else if (passthrough) {
            put87(k87Mcnt2, static_cast<uint32_t>(l.in_passes - 1) * 8);
        } else {
            put87(k87Mcnt1, mcnt_last);
            put87(k87Mcnt2, koffs);
        }
        if (m87) {
            int tscnt = 0;
            for (int qq : quads) tscnt = std::max(tscnt, (procs_in(qq) - 1) / 4);
            const uint32_t outputs = static_cast<uint32_t>(p.out_channels);
            const uint32_t ochan = l.calcx4 ? calcx4_block_kernels(l) : outputs;  // izer: kern_ochan // 4
            put87(k87Ochan, passthrough ? static_cast<uint32_t>(tscnt) : ochan - 1);
        }
        put(kTptr, 0);
        uint32_t ena = 0;
        for (int pr : l.in_processors)
            if (pr / ppq == q) ena |= 1u << (pr % ppq);
        put(kEna, (passthrough || l.bypass) ? ena : ena << 16 | ena);
        uint32_t post = quant_code << 22 | arith::encode_output_shift(p.output_shift) << 13;
        if (passthrough) post |= (operands == 1 ? 3u : 1u) << 24;
        if (!l.bias.empty() && q == l.bias_quadrant) post |= 1u << 12 | (l.calcx4 ? l.bias_offset / 4 : l.bias_offset);
        if (l.calcx4) post |= k87Calcx4;
        if (p.activation == arith::Activation::Abs) post |= 1u << 26;
        if (transpose) post |= 1u << 28;
        if (l.read_ahead && l.in_passes > 1) post |= k87Tcalc;
        put(kPost, post);
        uint32_t xpch = static_cast<uint32_t>(last_out - (l.out_first_processor & ~(share - 1))) *
                        static_cast<uint32_t>(l.bypass ? 8 : qf_bits);
        uint32_t write_skip = static_cast<uint32_t>(l.out_passes * (l.write_gap + 1) - 1);
        if (passthrough) {
            // Output map: each quadrant's channels packed from its output start.
            int first = -1, last = -1;
            for (int qq : quads)
                if (procs_in(qq)) {
                    const int start = qq * ppq + l.passthrough_out_start[qq];
                    if (first < 0) first = start;
                    last = start + procs_in(qq) - 1;
                }
            xpch = static_cast<uint32_t>(last - (first & ~(share - 1))) * 8;
            write_skip = static_cast<uint32_t>(l.write_gap);
        }
        put(kLctl2, xpch << (m87 ? k87XpchShift : 8) | static_cast<uint32_t>(l.in_passes - 1) | write_skip << 4);
    }

    // Kernels (four-write protocol): +0 holds k[0], +4 k[1..4] and +8 k[5..8]
    // with the first weight most significant; the write to +12 commits.
    const int n = static_cast<int>(l.in_processors.size());
    for (int i = 0; i < n && !passthrough && !l.bypass; ++i) {
        const int proc = l.in_processors[i];
        const std::vector<uint8_t> s = kernel_stream(l, i);
        const uint32_t words = static_cast<uint32_t>((s.size() + 8) / 9);
        for (uint32_t wd = 0; wd < words; ++wd) {
            uint8_t k[9] = {};
            for (int j = 0; j < 9; ++j) {
                const std::size_t idx = wd * 9 + static_cast<std::size_t>(j);
                if (idx < s.size()) k[8 - j] = s[idx];  // stream fills a word from its last weight down
            }
            const uint64_t slot =
                cfg.kernel_mem.base + (proc / ppq) * cfg.kernel_mem.quadrant_stride +
                (proc % ppq) * cfg.kernel_mem.instance_stride +
                uint64_t{kernel_stream_word(l, wd, cfg.kernel_mem.calcx4_block_stride)} * cfg.kernel_mem.slot_bytes;
            out.push_back({slot + 0, k[0], 4});
            out.push_back({slot + 4, uint32_t{k[1]} << 24 | uint32_t{k[2]} << 16 | uint32_t{k[3]} << 8 | k[4], 4});
            out.push_back({slot + 8, uint32_t{k[5]} << 24 | uint32_t{k[6]} << 16 | uint32_t{k[7]} << 8 | k[8], 4});
            out.push_back({slot + 12, 0, 4});
        }
    }

    // Bias bytes of output channel m at bias_offset + m in the bias group's memory.
    for (std::size_t m = 0; m < l.bias.size(); ++m)
        out.push_back({cfg.bias_mem.base + l.bias_quadrant * cfg.bias_mem.quadrant_stride +
                           (l.bias_offset + m) * cfg.bias_mem.slot_bytes,
                       static_cast<uint8_t>(l.bias[m]), 1});

    // Input (HWC): channel c on processor in_processors[c % n], pass c / n;
    // each pixel holds one block per pass, and each block the operands in
    // consecutive words (the generator's load.py order).
    std::map<uint64_t, uint32_t> words;
    for (int c = 0; c < n * l.in_passes; ++c) {
        const int proc = l.in_processors[c % n];
        const int pass = c / n;
        const int inst = proc / share;
        const uint64_t base = cfg.data_sram.base + (inst / instances_per_quadrant) * cfg.data_sram.quadrant_stride +
                              (inst % instances_per_quadrant) * cfg.data_sram.instance_stride;
        if (l.chw) {
            // One channel per instance, pixels in row-major order, four per word.
            for (int px = 0; px < h * w; ++px) {
                const uint64_t word = uint64_t{l.in_word} + px / 4;
                const int64_t v = l.inputs[0].at(c, px / w, px % w);
                words[base + word * cfg.data_sram.slot_bytes] |= uint32_t{static_cast<uint8_t>(v)} << (8 * (px % 4));
            }
            continue;
        }
        for (int px = 0; px < h * w; ++px)
            for (int k = 0; k < operands; ++k) {
                const uint64_t word = uint64_t{l.in_word} + (uint64_t(px) * l.in_passes + pass) * operands + k;
                const reference::Tensor& t = l.inputs[k];
                const int64_t v = c < t.channels ? t.at(c, px / w, px % w) : 0;
                words[base + word * cfg.data_sram.slot_bytes] |= uint32_t{static_cast<uint8_t>(v)}
                                                                 << (8 * (proc % share));
            }
    }
    for (const auto& [addr, v] : words) out.push_back({addr, v, 4});
    return out;
}

std::vector<BusWrite> compose_start_writes(const RandomLayer& l, const DeviceConfig& cfg) {
    const std::vector<int> quads = used_quadrants(l, cfg);
    const int master = quads.front();
    const uint32_t ctl = control_value(l);
    auto qreg = [&](int q) { return cfg.quadrant_regs.base + q * cfg.quadrant_regs.quadrant_stride + kRegCtl; };
    std::vector<BusWrite> out;
    for (int q : quads)
        if (q != master)
            out.push_back({qreg(q), ctl | kCtlSlave | static_cast<uint32_t>(master) << kCtlMasterShift | kCtlRun, 4});
    out.push_back({qreg(master), ctl | static_cast<uint32_t>(master) << kCtlMasterShift, 4});
    out.push_back({qreg(master), ctl | static_cast<uint32_t>(master) << kCtlMasterShift | kCtlRun, 4});
    return out;
}

OutputLocation output_location(const RandomLayer& l, const DeviceConfig& cfg, int m, int pixel) {
    const int share = static_cast<int>(cfg.processors_per_data_sram);
    const int ipq = static_cast<int>(cfg.data_sram.instances_per_quadrant);
    if (l.params.op == Op::Passthrough) {
        // Channel m comes from processor m % n, pass m / n, and lands at that
        // processor's rank within its quadrant, counted from the quadrant's start.
        const int ppq = static_cast<int>(cfg.processors_per_quadrant);
        const int n = static_cast<int>(l.in_processors.size());
        const int src = l.in_processors[m % n];
        const int q = src / ppq;
        int rank = 0;
        for (int pr : l.in_processors) rank += pr / ppq == q && pr < src;
        const int dst = q * ppq + l.passthrough_out_start[q] + rank;
        const int inst = dst / share;
        const uint64_t base = cfg.data_sram.base + (inst / ipq) * cfg.data_sram.quadrant_stride +
                              (inst % ipq) * cfg.data_sram.instance_stride;
        const uint64_t word = l.out_word + (uint64_t(pixel) * l.in_passes + m / n) * (l.write_gap + 1);
        return {base + word * cfg.data_sram.slot_bytes, unsigned(dst % share)};
    }
    const int proc = l.out_first_processor + m % l.out_positions;
    const int pass = m / l.out_positions;
    const int inst = proc / share;
    const uint64_t base = cfg.data_sram.base + (inst / ipq) * cfg.data_sram.quadrant_stride +
                          (inst % ipq) * cfg.data_sram.instance_stride;
    // Each pixel holds its output passes one after the other (pass offset:
    // one word, four for 32-bit output), then the write gap.
    const uint64_t per_pixel = uint64_t(l.out_passes) * (l.write_gap + 1);
    uint64_t word = l.out_word + uint64_t(pixel) * per_pixel + pass;
    // 32-bit outputs: four words per pixel and pass, one per channel of the instance.
    if (l.params.wide_output) word = l.out_word + (uint64_t(pixel) * per_pixel + pass) * 4 + proc % share;
    return {base + word * cfg.data_sram.slot_bytes, l.params.wide_output ? 0u : unsigned(proc % share)};
}

}  // namespace ai8x::test
