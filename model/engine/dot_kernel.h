// Exact integer dot products, the inner loop of every convolution layer.
//
// Data and weights are int8 on the chip; here both are widened to int16 so the
// host can multiply 16 pairs per instruction (AVX2 vpmaddwd) or, without AVX2,
// in portable C++. A product of two int8 values always fits in int16 range, the
// sums are kept exact in 64 bits, so the result is the same full-precision sum
// the accelerator forms (model/arith.h: no intermediate rounding or saturation).
#pragma once

#include <cstddef>
#include <cstdint>

namespace ai8x {

// Row lengths handed to accumulate_dots must be a multiple of this; callers pad
// both operands with zeros (a zero weight contributes nothing).
constexpr std::size_t kDotLanes = 16;

// Most weight rows one call combines with the same data row (register blocking:
// the data row is loaded once for all of them).
constexpr unsigned kDotMaxRows = 4;

// Adds to sums[r] (r < rows <= kDotMaxRows) the dot product of data row `x`
// with weight row `w[r]`, each `length` values long (a multiple of kDotLanes).
// Every value must lie in int8 range [-128, 127]; that bound is what keeps the
// 32-bit partial sums exact.
void accumulate_dots(const int16_t* x, const int16_t* const* w, unsigned rows, std::size_t length, int64_t* sums);

// True when accumulate_dots uses the AVX2 path on this host (for reports/tests).
bool dot_kernel_uses_avx2();

// The portable path alone, so tests can compare it with the dispatched one.
void accumulate_dots_portable(const int16_t* x, const int16_t* const* w, unsigned rows, std::size_t length,
                              int64_t* sums);

}  // namespace ai8x
