#include "model/engine/dot_kernel.h"

#include <algorithm>

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define AI8X_DOT_AVX2 1
#include <immintrin.h>
#endif

namespace ai8x {

namespace {

// Values are int8 range, so one product is at most 128 * 128 = 2^14 in
// magnitude. A chunk of 2^16 values therefore sums to at most 2^30: every
// 32-bit partial sum (per lane or after the horizontal add) stays exact.
constexpr std::size_t kExactChunk = std::size_t{1} << 16;

template <unsigned Rows>
void portable_rows(const int16_t* x, const int16_t* const* w, std::size_t length, int64_t* sums) {
    for (std::size_t start = 0; start < length; start += kExactChunk) {
        const std::size_t end = std::min(length, start + kExactChunk);
        int32_t part[Rows] = {};
        for (std::size_t k = start; k < end; ++k)
            for (unsigned r = 0; r < Rows; ++r) part[r] += int32_t{x[k]} * int32_t{w[r][k]};
        for (unsigned r = 0; r < Rows; ++r) sums[r] += part[r];
    }
}

#ifdef AI8X_DOT_AVX2
__attribute__((target("avx2"))) inline int32_t horizontal_sum(__m256i v) {
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4e));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xb1));
    return _mm_cvtsi128_si32(s);
}

template <unsigned Rows>
__attribute__((target("avx2"))) void avx2_rows(const int16_t* x, const int16_t* const* w, std::size_t length,
                                               int64_t* sums) {
    for (std::size_t start = 0; start < length; start += kExactChunk) {
        const std::size_t end = std::min(length, start + kExactChunk);
        __m256i acc[Rows];
        for (unsigned r = 0; r < Rows; ++r) acc[r] = _mm256_setzero_si256();
        for (std::size_t k = start; k < end; k += kDotLanes) {
            const __m256i xv = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + k));
            for (unsigned r = 0; r < Rows; ++r) {
                const __m256i wv = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w[r] + k));
                acc[r] = _mm256_add_epi32(acc[r], _mm256_madd_epi16(xv, wv));
            }
        }
        for (unsigned r = 0; r < Rows; ++r) sums[r] += horizontal_sum(acc[r]);
    }
}

bool host_has_avx2() {
    static const bool has = __builtin_cpu_supports("avx2");
    return has;
}
#endif

}  // namespace

void accumulate_dots_portable(const int16_t* x, const int16_t* const* w, unsigned rows, std::size_t length,
                              int64_t* sums) {
    switch (rows) {
        case 1: portable_rows<1>(x, w, length, sums); break;
        case 2: portable_rows<2>(x, w, length, sums); break;
        case 3: portable_rows<3>(x, w, length, sums); break;
        default: portable_rows<4>(x, w, length, sums); break;
    }
}

bool dot_kernel_uses_avx2() {
#ifdef AI8X_DOT_AVX2
    return host_has_avx2();
#else
    return false;
#endif
}

void accumulate_dots(const int16_t* x, const int16_t* const* w, unsigned rows, std::size_t length, int64_t* sums) {
#ifdef AI8X_DOT_AVX2
    if (host_has_avx2()) {
        switch (rows) {
            case 1: avx2_rows<1>(x, w, length, sums); return;
            case 2: avx2_rows<2>(x, w, length, sums); return;
            case 3: avx2_rows<3>(x, w, length, sums); return;
            default: avx2_rows<4>(x, w, length, sums); return;
        }
    }
#endif
    accumulate_dots_portable(x, w, rows, length, sums);
}

}  // namespace ai8x
