// Compiled once per Highway target (hwy/foreach_target.h re-includes this
// file); the dispatching functions at the end are compiled once. The
// exactness argument is in dot_kernel.h.
#include "model/engine/dot_kernel.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "model/engine/dot_kernel.cpp"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace ai8x {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Targets whose vectors cannot live in arrays (SVE, RVV) or hold one lane
// (HWY_SCALAR) use the plain path; every x86 target has the vector kernel.
#if HWY_HAVE_SCALABLE || HWY_TARGET == HWY_SCALAR

void ComputePixels(const ConvProblem& p, std::size_t first, std::size_t count, void* results) {
    compute_pixels_plain(p, first, count, results);
}

#else

using D32 = hn::ScalableTag<int32_t>;
using V32 = hn::Vec<D32>;
constexpr std::size_t kLanes = HWY_LANES(int32_t);
constexpr std::size_t kVectors = kBlockOutputs / kLanes;  // vectors per block of outputs
static_assert(kVectors * kLanes == kBlockOutputs, "a block of outputs fills whole vectors");
// Pixels sharing one pass over a weight block: as many accumulators as the
// registers hold beside the weights (AVX2: 6 x 2 of 16 ymm, AVX-512: 8 x 1).
constexpr std::size_t kTilePixels = kVectors >= 4 ? 2 : (kVectors == 2 ? 6 : 8);

// Output scaling of one vector of exact sums (bias included); dot_kernel.h
// says why int32 suffices. Equal lane by lane to arith::finish_output.
V32 finish8(D32 d, V32 sum, int output_shift, arith::Activation activation) {
    const int exponent = output_shift - 7;
    if (exponent < 0) {
        // floor((sum + d/2) / d) for d = 2^-exponent: an arithmetic shift.
        sum = hn::ShiftRightSame(hn::Add(sum, hn::Set(d, int32_t{1} << (-exponent - 1))), -exponent);
    } else {
        const V32 clamped = hn::Min(hn::Max(sum, hn::Set(d, -256)), hn::Set(d, 256));
        sum = hn::Mul(clamped, hn::Set(d, int32_t{1} << exponent));
    }
    sum = hn::Min(hn::Max(sum, hn::Set(d, arith::kDataMin)), hn::Set(d, arith::kDataMax));
    if (activation == arith::Activation::ReLU) sum = hn::Max(sum, hn::Zero(d));
    if (activation == arith::Activation::Abs) sum = hn::Min(hn::Abs(sum), hn::Set(d, arith::kDataMax));
    return sum;
}

// 32-bit outputs: the sum itself, with ReLU or Abs applied (as wide_result).
V32 finish_wide(D32 d, V32 sum, arith::Activation activation) {
    if (activation == arith::Activation::ReLU) return hn::Max(sum, hn::Zero(d));
    if (activation == arith::Activation::Abs) return hn::Abs(sum);
    return sum;
}

// Post-processes the exact sums of one block for the first `count` pixels of
// a tile (bias added here) into rows of `out`.
template <std::size_t kPixels>
HWY_INLINE void store_tile(const ConvProblem& p, const V32 (&sums)[kPixels][kVectors], std::size_t count,
                           std::size_t block, void* out, std::size_t stride) {
    const D32 d;
    const hn::Rebind<int8_t, D32> d8;
    for (std::size_t i = 0; i < count; ++i) {
        for (std::size_t v = 0; v < kVectors; ++v) {
            const std::size_t o = block * kBlockOutputs + v * kLanes;
            const V32 sum = hn::Add(sums[i][v], hn::LoadU(d, p.bias + o));
            if (p.wide)
                hn::StoreU(finish_wide(d, sum, p.activation), d, static_cast<int32_t*>(out) + i * stride + o);
            else
                hn::StoreU(hn::DemoteTo(d8, finish8(d, sum, p.output_shift, p.activation)), d8,
                           static_cast<int8_t*>(out) + i * stride + o);
        }
    }
}

// One block of kBlockOutputs outputs for the pixels whose receptive fields
// start at px[0..kTilePixels); results of the first `count` go to rows of `out`.
HWY_INLINE void block_tile(const ConvProblem& p, const int16_t* const* px, std::size_t count, std::size_t block,
                           void* out, std::size_t stride) {
    const D32 d;
    const hn::Repartition<int16_t, D32> d16;
    V32 even[kTilePixels][kVectors], odd[kTilePixels][kVectors];
    for (std::size_t i = 0; i < kTilePixels; ++i)
        for (std::size_t v = 0; v < kVectors; ++v) even[i][v] = odd[i][v] = hn::Zero(d);
    const std::size_t row_values = std::size_t{p.image_cols} * p.channels;
    const int16_t* w = p.weights + block * p.kernel_rows * p.row_pairs * kBlockOutputs * 2;
    for (uint32_t kr = 0; kr < p.kernel_rows; ++kr) {
        const std::size_t row = kr * row_values;
        for (uint32_t q = 0; q < p.row_pairs; ++q, w += kBlockOutputs * 2) {
            hn::Vec<decltype(d16)> wv[kVectors];
            for (std::size_t v = 0; v < kVectors; ++v) wv[v] = hn::LoadU(d16, w + v * kLanes * 2);
            for (std::size_t i = 0; i < kTilePixels; ++i) {
                int32_t pair;
                std::memcpy(&pair, px[i] + row + 2 * q, sizeof pair);
                const auto x = hn::BitCast(d16, hn::Set(d, pair));
                for (std::size_t v = 0; v < kVectors; ++v)
                    even[i][v] = hn::ReorderWidenMulAccumulate(d, x, wv[v], even[i][v], odd[i][v]);
            }
        }
    }
    for (std::size_t i = 0; i < kTilePixels; ++i)
        for (std::size_t v = 0; v < kVectors; ++v) even[i][v] = hn::RearrangeToOddPlusEven(even[i][v], odd[i][v]);
    store_tile<kTilePixels>(p, even, count, block, out, stride);
}

// The byte-operand kernel (dot_kernel.h) on the x86 targets, whose
// pmaddubsw it needs; elsewhere byte operands take the plain path.
#if HWY_ARCH_X86 && (HWY_TARGET == HWY_AVX3_DL || HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX2 || \
                     HWY_TARGET == HWY_SSE4 || HWY_TARGET == HWY_SSSE3)
constexpr bool kByteKernel = true;
using DU8 = hn::Repartition<uint8_t, D32>;
using DI8 = hn::Repartition<int8_t, D32>;
using DI16 = hn::Repartition<int16_t, D32>;
// Pixels per tile with byte operands: AVX2 keeps 5 x 2 accumulators, the
// weights, the ones and two products in its 16 registers.
constexpr std::size_t kByteTilePixels = kVectors >= 4 ? 2 : (kVectors == 2 ? 5 : 8);

// pmaddubsw (Highway 1.0 has no op for it): the unsigned bytes of `a` times
// the signed bytes of `b`, adjacent products summed into int16 lanes with
// saturation, which the byte operands' ranges never reach (dot_kernel.h).
HWY_INLINE hn::Vec<DI16> MulBytePairs(hn::Vec<DU8> a, hn::Vec<DI8> b) {
#if HWY_TARGET == HWY_AVX3_DL || HWY_TARGET == HWY_AVX3
    return hn::Vec<DI16>{_mm512_maddubs_epi16(a.raw, b.raw)};
#elif HWY_TARGET == HWY_AVX2
    return hn::Vec<DI16>{_mm256_maddubs_epi16(a.raw, b.raw)};
#else
    return hn::Vec<DI16>{_mm_maddubs_epi16(a.raw, b.raw)};
#endif
}

// block_tile() with byte operands: a quad of values per step.
HWY_INLINE void byte_block_tile(const ConvProblem& p, const uint8_t* const* px, std::size_t count, std::size_t block,
                                void* out, std::size_t stride) {
    const D32 d;
    const DU8 du8;
    const DI8 di8;
    const auto ones = hn::Set(DI16(), int16_t{1});
    V32 sums[kByteTilePixels][kVectors], unused = hn::Zero(d);
    for (std::size_t i = 0; i < kByteTilePixels; ++i)
        for (std::size_t v = 0; v < kVectors; ++v) sums[i][v] = hn::Zero(d);
    const std::size_t row_values = std::size_t{p.image_cols} * p.channels;
    const int8_t* w = p.weight_bytes + block * p.kernel_rows * p.row_quads * kBlockOutputs * 4;
    for (uint32_t kr = 0; kr < p.kernel_rows; ++kr) {
        const std::size_t row = kr * row_values;
        for (uint32_t q = 0; q < p.row_quads; ++q, w += kBlockOutputs * 4) {
            hn::Vec<DI8> wv[kVectors];
            for (std::size_t v = 0; v < kVectors; ++v) wv[v] = hn::LoadU(di8, w + v * kLanes * 4);
            for (std::size_t i = 0; i < kByteTilePixels; ++i) {
                int32_t quad;
                std::memcpy(&quad, px[i] + row + 4 * q, sizeof quad);
                const auto x = hn::BitCast(du8, hn::Set(d, quad));
                for (std::size_t v = 0; v < kVectors; ++v)
                    sums[i][v] = hn::ReorderWidenMulAccumulate(d, MulBytePairs(x, wv[v]), ones, sums[i][v], unused);
            }
        }
    }
    store_tile<kByteTilePixels>(p, sums, count, block, out, stride);
}
#else
constexpr bool kByteKernel = false;
constexpr std::size_t kByteTilePixels = 1;
HWY_INLINE void byte_block_tile(const ConvProblem&, const uint8_t* const*, std::size_t, std::size_t, void*,
                                std::size_t) {}
#endif

// Steps (row, col) to the next output pixel in row-major order.
inline void next_pixel(const ConvProblem& p, std::size_t& row, std::size_t& col) {
    if (++col == p.out_cols) {
        col = 0;
        ++row;
    }
}

// Every block of pixels [first, first + count), kTile pixels at a time, by
// `tile` (block_tile or byte_block_tile) over `image` (p.image or p.image_bytes).
template <std::size_t kTile, typename T, typename Tile>
HWY_INLINE void compute_tiles(const ConvProblem& p, const T* image, std::size_t first, std::size_t count, void* results,
                              Tile tile) {
    const std::size_t stride = result_stride(p);
    const std::size_t value_bytes = p.wide ? sizeof(int32_t) : sizeof(int8_t);
    std::size_t row = first / p.out_cols, col = first % p.out_cols;
    for (std::size_t done = 0; done < count; done += kTile) {
        const std::size_t n = std::min(kTile, count - done);
        // Receptive field starts; a short last tile repeats its last pixel.
        const T* px[kTile];
        for (std::size_t i = 0; i < kTile; ++i) {
            px[i] = image + (row * p.image_cols + col) * p.channels;
            if (i + 1 < n) next_pixel(p, row, col);
        }
        next_pixel(p, row, col);
        void* out = static_cast<char*>(results) + done * stride * value_bytes;
        for (std::size_t b = 0; b < p.blocks; ++b) tile(p, px, n, b, out, stride);
    }
}

void ComputePixels(const ConvProblem& p, std::size_t first, std::size_t count, void* results) {
    if (!p.weight_bytes) return compute_tiles<kTilePixels>(p, p.image, first, count, results, block_tile);
    if (!kByteKernel) return compute_pixels_plain(p, first, count, results);
    compute_tiles<kByteTilePixels>(p, p.image_bytes, first, count, results, byte_block_tile);
}

#endif

}  // namespace HWY_NAMESPACE
}  // namespace ai8x
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace ai8x {

namespace {

using ComputeFn = void (*)(const ConvProblem&, std::size_t, std::size_t, void*);

struct KernelTarget {
    int64_t bit;  // HWY_* target bit
    ComputeFn compute;
};

// Every target compiled into this file, best first (Highway numbers better
// targets with lower bits).
const KernelTarget kCompiled[] = {
#if HWY_TARGETS & HWY_AVX3_DL
    {HWY_AVX3_DL, &N_AVX3_DL::ComputePixels},
#endif
#if HWY_TARGETS & HWY_AVX3
    {HWY_AVX3, &N_AVX3::ComputePixels},
#endif
#if HWY_TARGETS & HWY_AVX2
    {HWY_AVX2, &N_AVX2::ComputePixels},
#endif
#if HWY_TARGETS & HWY_SSE4
    {HWY_SSE4, &N_SSE4::ComputePixels},
#endif
#if HWY_TARGETS & HWY_SSSE3
    {HWY_SSSE3, &N_SSSE3::ComputePixels},
#endif
#if HWY_TARGETS & HWY_NEON
    {HWY_NEON, &N_NEON::ComputePixels},
#endif
#if HWY_TARGETS & HWY_EMU128
    {HWY_EMU128, &N_EMU128::ComputePixels},
#endif
#if HWY_TARGETS & HWY_SCALAR
    {HWY_SCALAR, &N_SCALAR::ComputePixels},
#endif
};

// The compiled targets this host runs, best first.
const std::vector<KernelTarget>& host_targets() {
    static const std::vector<KernelTarget> targets = [] {
        std::vector<KernelTarget> list;
        for (const KernelTarget& t : kCompiled)
            if (hwy::SupportedTargets() & t.bit) list.push_back(t);
        return list;
    }();
    return targets;
}

// What compute_pixels does, chosen once from AI8XSIM_DOT_KERNEL (docs in
// dot_kernel.h) unless a test forced a target since.
struct Choice {
    ComputeFn compute = nullptr;  // nullptr: the plain path
    int64_t bit = 0;
    bool check = false;
};

Choice choice_from_environment() {
    const std::vector<KernelTarget>& targets = host_targets();
    Choice best{targets.front().compute, targets.front().bit, false};
    const char* value = std::getenv("AI8XSIM_DOT_KERNEL");
    const std::string wanted = value ? value : "";
    if (wanted.empty() || wanted == "best") return best;
    if (wanted == "plain") return {nullptr, 0, false};
    if (wanted == "check") return {best.compute, best.bit, true};
    for (const KernelTarget& t : targets)
        if (wanted == hwy::TargetName(t.bit)) return {t.compute, t.bit, false};
    spdlog::warn("AI8XSIM_DOT_KERNEL={}: not 'best', 'plain', 'check' or a target this host runs ({}); using {}",
                 wanted, dot_kernel_target_names(), hwy::TargetName(best.bit));
    return best;
}

std::atomic<const Choice*> g_forced{nullptr};

const Choice& current_choice() {
    static const Choice from_environment = choice_from_environment();
    const Choice* forced = g_forced.load(std::memory_order_acquire);
    return forced ? *forced : from_environment;
}

// Whether every sum of `p` stays exact in an int32 lane (dot_kernel.h):
// products up to 2^14 per receptive-field value, the bias, and the rounding
// half of the largest right shift (2^21) below 2^31.
bool sums_fit_int32(const ConvProblem& p) {
    const uint64_t values = uint64_t{p.kernel_rows} * segment_values(p);
    if (values > kMaxExactValues) return false;
    uint64_t bias = 0;
    for (std::size_t o = 0; o < result_stride(p); ++o)
        bias = std::max<uint64_t>(bias, static_cast<uint64_t>(std::abs(int64_t{p.bias[o]})));
    return (values << 14) + bias + (uint64_t{1} << 21) < (uint64_t{1} << 31);
}

// 32-bit output of the plain path: the full sum with ReLU or Abs applied,
// stored as its low 32 bits.
int32_t wide_result(int64_t acc, arith::Activation act) {
    if (acc < 0 && act == arith::Activation::ReLU) acc = 0;
    if (acc < 0 && act == arith::Activation::Abs) acc = -acc;
    return arith::wide_output(acc);
}

}  // namespace

void compute_pixels(const ConvProblem& p, std::size_t first, std::size_t count, void* results) {
    const Choice& c = current_choice();
    if (!c.compute || !sums_fit_int32(p)) return compute_pixels_plain(p, first, count, results);
    c.compute(p, first, count, results);
    if (c.check) check_against_every_target(p, first, count, results);
}

namespace {

// The exact sum of output `o` over the receptive field starting at value
// `field` of the image: `Value` and `Weight` are int16_t for pairs (`group`
// 2), uint8_t and int8_t for byte operands' quads (4).
template <typename Value, typename Weight>
int64_t plain_sum(const ConvProblem& p, const Value* field, const Weight* weights, std::size_t group, std::size_t o) {
    const std::size_t row_values = std::size_t{p.image_cols} * p.channels, steps = segment_values(p) / group;
    const Weight* w =
        weights + o / kBlockOutputs * p.kernel_rows * steps * kBlockOutputs * group + o % kBlockOutputs * group;
    int64_t sum = p.bias[o];
    for (uint32_t kr = 0; kr < p.kernel_rows; ++kr)
        for (std::size_t q = 0; q < steps; ++q, w += kBlockOutputs * group)
            for (std::size_t e = 0; e < group; ++e) sum += int64_t{field[kr * row_values + group * q + e]} * w[e];
    return sum;
}

}  // namespace

void compute_pixels_plain(const ConvProblem& p, std::size_t first, std::size_t count, void* results) {
    const std::size_t stride = result_stride(p);
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t n = first + i;
        const std::size_t field = (n / p.out_cols * p.image_cols + n % p.out_cols) * p.channels;
        for (std::size_t o = 0; o < stride; ++o) {
            const int64_t sum = p.weight_bytes ? plain_sum(p, p.image_bytes + field, p.weight_bytes, 4, o)
                                               : plain_sum(p, p.image + field, p.weights, 2, o);
            if (p.wide)
                static_cast<int32_t*>(results)[i * stride + o] = wide_result(sum, p.activation);
            else
                static_cast<int8_t*>(results)[i * stride + o] = arith::finish_output(sum, p.output_shift, p.activation);
        }
    }
}

void check_against_every_target(const ConvProblem& p, std::size_t first, std::size_t count, const void* results) {
    const std::size_t bytes = count * result_stride(p) * (p.wide ? sizeof(int32_t) : sizeof(int8_t));
    std::vector<char> other(bytes);
    auto compare = [&](const char* name) {
        if (std::memcmp(results, other.data(), bytes) == 0) return;
        std::size_t at = 0;
        while (static_cast<const char*>(results)[at] == other[at]) ++at;
        const std::size_t value = at / (p.wide ? sizeof(int32_t) : sizeof(int8_t));
        throw std::logic_error(std::string("dot kernel: ") + name + " differs from " + dot_kernel_in_use() +
                               " at output pixel " + std::to_string(first + value / result_stride(p)) + ", output " +
                               std::to_string(value % result_stride(p)));
    };
    compute_pixels_plain(p, first, count, other.data());
    compare("the plain path");
    for (const KernelTarget& t : host_targets()) {
        t.compute(p, first, count, other.data());
        compare(hwy::TargetName(t.bit));
    }
}

std::vector<int64_t> dot_kernel_targets() {
    std::vector<int64_t> bits;
    for (const KernelTarget& t : host_targets()) bits.push_back(t.bit);
    return bits;
}

std::string dot_kernel_target_names() {
    std::string names;
    for (const KernelTarget& t : host_targets())
        names += (names.empty() ? "" : ", ") + std::string(hwy::TargetName(t.bit));
    return names;
}

std::string dot_kernel_in_use() {
    const Choice& c = current_choice();
    const std::string name = c.compute ? hwy::TargetName(c.bit) : "plain";
    return c.check ? name + " (checked against every target)" : name;
}

void choose_dot_kernel() { current_choice(); }

void force_dot_kernel_target(int64_t target) {
    // Kept for the life of the process: a thread may still read a choice the
    // next call replaces.
    static std::vector<std::unique_ptr<Choice>> made;
    static std::mutex mutex;
    std::lock_guard<std::mutex> lock(mutex);
    if (target == 0) {
        g_forced.store(nullptr, std::memory_order_release);
        return;
    }
    ComputeFn compute = nullptr;
    for (const KernelTarget& t : host_targets())
        if (t.bit == target) compute = t.compute;
    if (target != kPlainPath && !compute)
        throw std::invalid_argument("dot kernel: target " + std::to_string(target) + " is not run by this host");
    made.push_back(std::make_unique<Choice>(Choice{compute, target == kPlainPath ? 0 : target, false}));
    g_forced.store(made.back().get(), std::memory_order_release);
}

}  // namespace ai8x
#endif  // HWY_ONCE
