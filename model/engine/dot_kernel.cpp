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
    const hn::Rebind<int8_t, D32> d8;
    for (std::size_t i = 0; i < count; ++i) {
        for (std::size_t v = 0; v < kVectors; ++v) {
            const std::size_t o = block * kBlockOutputs + v * kLanes;
            const V32 sum = hn::Add(hn::RearrangeToOddPlusEven(even[i][v], odd[i][v]), hn::LoadU(d, p.bias + o));
            if (p.wide)
                hn::StoreU(finish_wide(d, sum, p.activation), d, static_cast<int32_t*>(out) + i * stride + o);
            else
                hn::StoreU(hn::DemoteTo(d8, finish8(d, sum, p.output_shift, p.activation)), d8,
                           static_cast<int8_t*>(out) + i * stride + o);
        }
    }
}

// Steps (row, col) to the next output pixel in row-major order.
inline void next_pixel(const ConvProblem& p, std::size_t& row, std::size_t& col) {
    if (++col == p.out_cols) {
        col = 0;
        ++row;
    }
}

void ComputePixels(const ConvProblem& p, std::size_t first, std::size_t count, void* results) {
    const std::size_t stride = result_stride(p);
    const std::size_t value_bytes = p.wide ? sizeof(int32_t) : sizeof(int8_t);
    std::size_t row = first / p.out_cols, col = first % p.out_cols;
    for (std::size_t done = 0; done < count; done += kTilePixels) {
        const std::size_t n = std::min(kTilePixels, count - done);
        // Receptive field starts; a short last tile repeats its last pixel.
        const int16_t* px[kTilePixels];
        for (std::size_t i = 0; i < kTilePixels; ++i) {
            px[i] = p.image + (row * p.image_cols + col) * p.channels;
            if (i + 1 < n) next_pixel(p, row, col);
        }
        next_pixel(p, row, col);
        void* out = static_cast<char*>(results) + done * stride * value_bytes;
        for (std::size_t b = 0; b < p.blocks; ++b) block_tile(p, px, n, b, out, stride);
    }
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
    const uint64_t values = uint64_t{2} * p.kernel_rows * p.row_pairs;
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

void compute_pixels_plain(const ConvProblem& p, std::size_t first, std::size_t count, void* results) {
    const std::size_t stride = result_stride(p), row_values = std::size_t{p.image_cols} * p.channels;
    const std::size_t block_values = std::size_t{p.kernel_rows} * p.row_pairs * kBlockOutputs * 2;
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t n = first + i;
        const int16_t* field = p.image + (n / p.out_cols * p.image_cols + n % p.out_cols) * p.channels;
        for (std::size_t o = 0; o < stride; ++o) {
            const int16_t* w = p.weights + o / kBlockOutputs * block_values + o % kBlockOutputs * 2;
            int64_t sum = p.bias[o];
            for (uint32_t kr = 0; kr < p.kernel_rows; ++kr)
                for (uint32_t q = 0; q < p.row_pairs; ++q, w += kBlockOutputs * 2)
                    for (uint32_t e = 0; e < 2; ++e) sum += int64_t{field[kr * row_values + 2 * q + e]} * w[e];
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
