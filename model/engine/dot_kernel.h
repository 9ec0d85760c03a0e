// The convolution's arithmetic: every output pixel of a layer times every
// output channel, one exact integer matrix product, vectorised with Highway
// (libhwy) and dispatched at run time to the best instruction set the host has
// (AVX-512, AVX2, SSE4, SSSE3 or Highway's portable EMU128), with a plain C++
// path beside it that computes the same numbers the simplest way (the one the
// tests hold every target to).
//
// Layout (model/engine/conv_layout.h builds it once per layer):
//  * the input is one zero-padded, channel-last int16 image: the receptive
//    field of an output pixel is, per kernel row, one contiguous segment of
//    kernel_cols * channels values;
//  * the weights are packed in blocks of kBlockOutputs output channels: per
//    block, kernel row and pair of segment values, the 16 outputs' two
//    weights side by side. A segment of odd length is padded with a zero
//    weight; the data value it meets (the next pixel's first channel, or the
//    image's slack) is multiplied by that zero.
// One step multiplies a pair of data values (broadcast to every lane) with
// the pairs of 16 outputs and adds both products to each output's lane
// (x86: vpmaddwd + vpaddd): the outputs of a pixel are vector lanes, so no
// horizontal sums are needed and a segment need only be padded to even length.
//
// Byte operands: when every value of the image lies in [0, 127] (a layer
// whose input is an earlier layer's ReLU output, most hidden layers), the
// image is also given as bytes and the weights as int8 quads (per block,
// kernel row and quad of segment values, the 16 outputs' four weights side
// by side; a segment is padded to a multiple of four with zero weights, the
// data they meet being image values or its slack). One step multiplies a
// quad of data bytes (broadcast) with the quads of 16 outputs: x86's
// pmaddubsw sums the two products of each unsigned-by-signed byte pair into
// an int16 lane, pmaddwd with ones adds two such lanes into int32, vpaddd
// accumulates: four values per step instead of two.
//
// Exactness (why int32 lanes give the accelerator's full-precision sums):
//  * data values are int8 ([-128, 127]); weights are decoded from 8-, 4-, 2-
//    or 1-bit fields, binary (+1/-1) or bypass (1): all in [-128, 127]. One
//    product is at most 128 * 128 = 2^14 in magnitude, a pair at most 2^15:
//    the widening multiply-add cannot overflow its int32 lane (vpmaddwd's
//    single wrapping case, both pairs -32768 * -32768, cannot arise), and no
//    saturating instruction (vpmaddubsw, vpadds*) is used anywhere.
//  * byte operands: pmaddubsw saturates its int16 sums, but a data byte in
//    [0, 127] times a weight in [-128, 127] is in [-16256, 16129] and two of
//    them in [-32512, 32258], inside int16: it never saturates. The bytes
//    are used only when the whole image (slack included) is in [0, 127]
//    (conv_layout.h checks); pmaddwd with ones then adds two int16 lanes
//    exactly into int32.
//  * a lane sums one output's products only: with at most kMaxExactValues
//    values per receptive field the sum is at most 2^16 * 2^14 = 2^30 in
//    magnitude; compute_pixels checks that this bound plus the largest bias
//    plus the rounding term (2^21) stays below 2^31 and otherwise takes the
//    plain path, whose sums are int64 (no layer the generator makes comes
//    near: 64 processors * 9 taps * 16 passes is 9,216 values).
//  * output scaling works on that exact int32 sum: a right shift rounds by
//    adding half the divisor first (below 2^31, as above), a left shift
//    clamps the sum to [-256, 256] first, which cannot change the saturated
//    8-bit result (|sum| > 128 saturates before and after).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "model/arith.h"

namespace ai8x {

// Output channels per packed weight block: two AVX2 vectors of int32 lanes,
// one AVX-512 vector, four SSE vectors.
constexpr std::size_t kBlockOutputs = 16;

// Longest receptive field (values, padding included) the int32 lanes sum
// exactly; see the exactness argument above.
constexpr std::size_t kMaxExactValues = std::size_t{1} << 16;

// Extra zero values after the last pixel of an image, so that the pair read
// of an odd segment at the image's very end stays inside the buffer.
constexpr std::size_t kImageSlack = 2;
// The same for the quad read of byte operands.
constexpr std::size_t kByteImageSlack = 4;

// One convolution layer's operands as the kernel reads them.
struct ConvProblem {
    const int16_t* image = nullptr;  // channel-last: (row * image_cols + col) * channels + channel
    uint32_t image_cols = 0, channels = 0;
    uint32_t kernel_rows = 0;
    uint32_t row_pairs = 0;            // value pairs per kernel-row segment: ceil(kernel_cols * channels / 2)
    uint32_t out_cols = 0;             // output pixel n sits at row n / out_cols, column n % out_cols
    const int16_t* weights = nullptr;  // blocks * kernel_rows * row_pairs * kBlockOutputs * 2 values
    uint32_t blocks = 0;
    // blocks * kBlockOutputs scaled biases (0 for padding outputs); a sum of
    // at most one byte * 128 per quadrant, far inside int32.
    const int32_t* bias = nullptr;
    int output_shift = 0;
    arith::Activation activation = arith::Activation::None;
    bool wide = false;  // 32-bit outputs: the full sum, activation applied, no shift or saturation
    // Byte operands (both set, or neither): the same image as bytes in
    // [0, 127], and the weights as quads, blocks * kernel_rows * row_quads *
    // kBlockOutputs * 4 values; the kernel then uses these instead of `image`
    // and `weights` (which may be null).
    const uint8_t* image_bytes = nullptr;
    const int8_t* weight_bytes = nullptr;
    uint32_t row_quads = 0;  // value quads per kernel-row segment: ceil(kernel_cols * channels / 4)
};

// Values per kernel row and segment step of `p`'s weights: pairs, or quads with byte operands.
inline std::size_t segment_values(const ConvProblem& p) {
    return p.weight_bytes ? std::size_t{p.row_quads} * 4 : std::size_t{p.row_pairs} * 2;
}

// Outputs per result row (every block's lanes, padding included).
inline std::size_t result_stride(const ConvProblem& p) { return std::size_t{p.blocks} * kBlockOutputs; }

// Computes output pixels [first, first + count): pixel n's value of output o
// goes to results[(n - first) * result_stride(p) + o], an int8_t for 8-bit
// outputs, an int32_t for wide ones (`results` points to that type).
void compute_pixels(const ConvProblem& p, std::size_t first, std::size_t count, void* results);

// The same with plain C++ and int64 sums (no SIMD); the reference for tests.
void compute_pixels_plain(const ConvProblem& p, std::size_t first, std::size_t count, void* results);

// The Highway targets (HWY_* bits) compiled in that this host runs, best
// first, and their names ("AVX2, SSE4, SSSE3, EMU128").
std::vector<int64_t> dot_kernel_targets();
std::string dot_kernel_target_names();

// What compute_pixels uses: a target's name, "plain", with " (checked against
// every target)" in check mode. Chosen at the first use from the environment
// variable AI8XSIM_DOT_KERNEL: unset or "best" the best target, "plain" the
// plain path, a name of dot_kernel_target_names() that target, "check" the
// best target and, for every call, the plain path and every other target
// too, throwing std::logic_error at the first value that differs (the
// randomized layer test and CI's conformance runs use it).
std::string dot_kernel_in_use();

// Makes that choice now. The first choice probes the processor (CPUID), which
// some virtual machines trap at several microseconds a probe; the accelerator
// calls this when it is built so no inference pays for it.
void choose_dot_kernel();

// What check mode does after each call: compares `results` of pixels
// [first, first + count) with the plain path's and every target's, and
// throws std::logic_error naming the first pixel and output that differs.
void check_against_every_target(const ConvProblem& p, std::size_t first, std::size_t count, const void* results);

// Makes compute_pixels use `target` (one of dot_kernel_targets(), or
// kPlainPath) from now on; 0 returns to the environment's choice. Throws
// std::invalid_argument for a target this host does not run. For tests.
constexpr int64_t kPlainPath = -1;
void force_dot_kernel_target(int64_t target);

}  // namespace ai8x
