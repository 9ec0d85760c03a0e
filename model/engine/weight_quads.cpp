#include "model/engine/weight_quads.h"

#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace ai8x {

namespace {

static_assert(kColumnBytes == 16, "a column is one 16-byte vector");

void plain_columns(const uint8_t* rows, std::size_t row_stride, std::size_t length, uint8_t* columns) {
    for (std::size_t l = 0; l < kColumnBytes; ++l)
        for (std::size_t k = 0; k < length; ++k) columns[k * kColumnBytes + l] = rows[l * row_stride + k];
}

void plain_quads(const uint8_t* columns, const uint32_t* column_offsets, std::size_t steps, int8_t* out) {
    for (std::size_t s = 0; s < steps; ++s, out += 4 * kColumnBytes)
        for (std::size_t v = 0; v < 4; ++v) {
            const uint8_t* column = columns + column_offsets[4 * s + v];
            for (std::size_t l = 0; l < kColumnBytes; ++l) out[4 * l + v] = static_cast<int8_t>(column[l]);
        }
}

void plain_pairs(const uint8_t* columns, const uint32_t* column_offsets, std::size_t steps, int16_t* out) {
    for (std::size_t s = 0; s < steps; ++s, out += 2 * kColumnBytes)
        for (std::size_t v = 0; v < 2; ++v) {
            const uint8_t* column = columns + column_offsets[2 * s + v];
            for (std::size_t l = 0; l < kColumnBytes; ++l) out[2 * l + v] = static_cast<int8_t>(column[l]);
        }
}

#if defined(__SSE2__)
// Unpack rounds of a byte transposition: round r interleaves elements of 2^r
// bytes of vectors 2i and 2i + 1 into vector i (low halves) and i + n / 2
// (high halves). After the rounds vector n holds one byte position of every
// row, in row order: the position is n's bits reversed (each round moves one
// bit of the position from the index's low end to its high end).
template <std::size_t N, typename Unpack>
void unpack_round(__m128i* v, Unpack lo_hi) {
    __m128i t[N];
    for (std::size_t i = 0; i < N / 2; ++i) lo_hi(v[2 * i], v[2 * i + 1], t[i], t[i + N / 2]);
    for (std::size_t i = 0; i < N; ++i) v[i] = t[i];
}

void unpack8(__m128i a, __m128i b, __m128i& lo, __m128i& hi) {
    lo = _mm_unpacklo_epi8(a, b), hi = _mm_unpackhi_epi8(a, b);
}
void unpack16(__m128i a, __m128i b, __m128i& lo, __m128i& hi) {
    lo = _mm_unpacklo_epi16(a, b), hi = _mm_unpackhi_epi16(a, b);
}
void unpack32(__m128i a, __m128i b, __m128i& lo, __m128i& hi) {
    lo = _mm_unpacklo_epi32(a, b), hi = _mm_unpackhi_epi32(a, b);
}
void unpack64(__m128i a, __m128i b, __m128i& lo, __m128i& hi) {
    lo = _mm_unpacklo_epi64(a, b), hi = _mm_unpackhi_epi64(a, b);
}

// Positions 0..15 of 16 rows: four full rounds.
void columns16(const uint8_t* rows, std::size_t row_stride, uint8_t* columns) {
    static constexpr int kPosition[16] = {0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15};
    __m128i v[16];
    for (std::size_t l = 0; l < 16; ++l)
        v[l] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(rows + l * row_stride));
    unpack_round<16>(v, unpack8);
    unpack_round<16>(v, unpack16);
    unpack_round<16>(v, unpack32);
    unpack_round<16>(v, unpack64);
    for (int n = 0; n < 16; ++n)
        _mm_storeu_si128(reinterpret_cast<__m128i*>(columns + kPosition[n] * kColumnBytes), v[n]);
}

// Positions 0..7 (8-byte loads): the first round's high halves would be
// zeros, so it keeps the low ones; eight vectors from then on.
void columns8(const uint8_t* rows, std::size_t row_stride, uint8_t* columns) {
    static constexpr int kPosition[8] = {0, 4, 2, 6, 1, 5, 3, 7};
    __m128i v[16];
    for (std::size_t l = 0; l < 16; ++l)
        v[l] = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(rows + l * row_stride));
    for (std::size_t i = 0; i < 8; ++i) v[i] = _mm_unpacklo_epi8(v[2 * i], v[2 * i + 1]);
    unpack_round<8>(v, unpack16);
    unpack_round<8>(v, unpack32);
    unpack_round<8>(v, unpack64);
    for (int n = 0; n < 8; ++n)
        _mm_storeu_si128(reinterpret_cast<__m128i*>(columns + kPosition[n] * kColumnBytes), v[n]);
}

// Positions 0..3 (4-byte loads): low halves only in the first two rounds.
void columns4(const uint8_t* rows, std::size_t row_stride, uint8_t* columns) {
    static constexpr int kPosition[4] = {0, 2, 1, 3};
    __m128i v[16];
    for (std::size_t l = 0; l < 16; ++l) {
        int32_t word;
        std::memcpy(&word, rows + l * row_stride, sizeof word);
        v[l] = _mm_cvtsi32_si128(word);
    }
    for (std::size_t i = 0; i < 8; ++i) v[i] = _mm_unpacklo_epi8(v[2 * i], v[2 * i + 1]);
    for (std::size_t i = 0; i < 4; ++i) v[i] = _mm_unpacklo_epi16(v[2 * i], v[2 * i + 1]);
    unpack_round<4>(v, unpack32);
    unpack_round<4>(v, unpack64);
    for (int n = 0; n < 4; ++n)
        _mm_storeu_si128(reinterpret_cast<__m128i*>(columns + kPosition[n] * kColumnBytes), v[n]);
}

// 16, 8 or 4 positions at a time, the narrowest that holds what is left:
// kernels of a few bytes (1-D, 1x1) would leave most of a 16-byte load unused.
void sse2_columns(const uint8_t* rows, std::size_t row_stride, std::size_t length, uint8_t* columns) {
    for (std::size_t k = 0; k < length;) {
        const std::size_t left = length - k;
        uint8_t* at = columns + k * kColumnBytes;
        if (left > 8)
            columns16(rows + k, row_stride, at), k += 16;
        else if (left > 4)
            columns8(rows + k, row_stride, at), k += 8;
        else
            columns4(rows + k, row_stride, at), k += 4;
    }
}

void sse2_quads(const uint8_t* columns, const uint32_t* column_offsets, std::size_t steps, int8_t* out) {
    __m128i* dst = reinterpret_cast<__m128i*>(out);
    for (std::size_t s = 0; s < steps; ++s, column_offsets += 4, dst += 4) {
        __m128i c[4];
        for (int v = 0; v < 4; ++v)
            c[v] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(columns + column_offsets[v]));
        // Bytes of columns 0 and 1 paired, of 2 and 3 paired, then the pairs
        // paired: output l's four values side by side.
        const __m128i low01 = _mm_unpacklo_epi8(c[0], c[1]), high01 = _mm_unpackhi_epi8(c[0], c[1]);
        const __m128i low23 = _mm_unpacklo_epi8(c[2], c[3]), high23 = _mm_unpackhi_epi8(c[2], c[3]);
        _mm_storeu_si128(dst + 0, _mm_unpacklo_epi16(low01, low23));
        _mm_storeu_si128(dst + 1, _mm_unpackhi_epi16(low01, low23));
        _mm_storeu_si128(dst + 2, _mm_unpacklo_epi16(high01, high23));
        _mm_storeu_si128(dst + 3, _mm_unpackhi_epi16(high01, high23));
    }
}

// Bytes of columns 0 and 1 paired, then each byte doubled into a 16-bit lane
// and shifted down with its sign: output l's two values side by side.
void sse2_pairs(const uint8_t* columns, const uint32_t* column_offsets, std::size_t steps, int16_t* out) {
    __m128i* dst = reinterpret_cast<__m128i*>(out);
    for (std::size_t s = 0; s < steps; ++s, column_offsets += 2, dst += 4) {
        const __m128i c0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(columns + column_offsets[0]));
        const __m128i c1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(columns + column_offsets[1]));
        const __m128i low = _mm_unpacklo_epi8(c0, c1), high = _mm_unpackhi_epi8(c0, c1);
        _mm_storeu_si128(dst + 0, _mm_srai_epi16(_mm_unpacklo_epi8(low, low), 8));
        _mm_storeu_si128(dst + 1, _mm_srai_epi16(_mm_unpackhi_epi8(low, low), 8));
        _mm_storeu_si128(dst + 2, _mm_srai_epi16(_mm_unpacklo_epi8(high, high), 8));
        _mm_storeu_si128(dst + 3, _mm_srai_epi16(_mm_unpackhi_epi8(high, high), 8));
    }
}
#endif

}  // namespace

void bytes_to_columns(const uint8_t* rows, std::size_t row_stride, std::size_t length, uint8_t* columns,
                      ByteMoves how) {
#if defined(__SSE2__)
    if (how == ByteMoves::best) return sse2_columns(rows, row_stride, length, columns);
#endif
    (void)how;
    plain_columns(rows, row_stride, length, columns);
}

void interleave_quads(const uint8_t* columns, const uint32_t* column_offsets, std::size_t steps, int8_t* out,
                      ByteMoves how) {
#if defined(__SSE2__)
    if (how == ByteMoves::best) return sse2_quads(columns, column_offsets, steps, out);
#endif
    (void)how;
    plain_quads(columns, column_offsets, steps, out);
}

void interleave_pairs(const uint8_t* columns, const uint32_t* column_offsets, std::size_t steps, int16_t* out,
                      ByteMoves how) {
#if defined(__SSE2__)
    if (how == ByteMoves::best) return sse2_pairs(columns, column_offsets, steps, out);
#endif
    (void)how;
    plain_pairs(columns, column_offsets, steps, out);
}

}  // namespace ai8x
