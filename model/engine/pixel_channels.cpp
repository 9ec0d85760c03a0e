#include "model/engine/pixel_channels.h"

#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace ai8x {

namespace {

template <typename T>
void plain_pixels(const uint32_t* src, std::size_t pixels, uint32_t passes, T* row, std::size_t col_pitch) {
    for (std::size_t px = 0; px < pixels; ++px, row += col_pitch, src += passes)
        for (uint32_t j = 0; j < passes; ++j)
            for (unsigned k = 0; k < 4; ++k) row[k * passes + j] = static_cast<int8_t>(src[j] >> (8 * k));
}

#if defined(__SSE2__)
__m128i load(const uint32_t* src) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(src)); }

// Stores the first n = 4, 8 or 16 byte values of `bytes` at `to`, as bytes
// or sign-extended to int16.
template <std::size_t N>
void store(__m128i bytes, int8_t* to) {
    if constexpr (N == 4) {
        const int32_t four = _mm_cvtsi128_si32(bytes);
        __builtin_memcpy(to, &four, 4);
    } else if constexpr (N == 8) {
        _mm_storel_epi64(reinterpret_cast<__m128i*>(to), bytes);
    } else {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(to), bytes);
    }
}
template <std::size_t N>
void store(__m128i bytes, int16_t* to) {
    // Each byte doubled into a 16-bit lane, then shifted down with its sign.
    const __m128i low = _mm_srai_epi16(_mm_unpacklo_epi8(bytes, bytes), 8);
    if constexpr (N == 4) {
        _mm_storel_epi64(reinterpret_cast<__m128i*>(to), low);
    } else {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(to), low);
        if constexpr (N == 16)
            _mm_storeu_si128(reinterpret_cast<__m128i*>(to + 8), _mm_srai_epi16(_mm_unpackhi_epi8(bytes, bytes), 8));
    }
}

// One pass: a word is a pixel's four channels as they stand; four pixels a load.
template <typename T>
std::size_t one_pass(const uint32_t* src, std::size_t pixels, T* row, std::size_t col_pitch) {
    std::size_t px = 0;
    for (; px + 4 <= pixels; px += 4, src += 4, row += 4 * col_pitch) {
        const __m128i v = load(src);
        store<4>(v, row);
        store<4>(_mm_srli_si128(v, 4), row + col_pitch);
        store<4>(_mm_srli_si128(v, 8), row + 2 * col_pitch);
        store<4>(_mm_srli_si128(v, 12), row + 3 * col_pitch);
    }
    return px;
}

// Two passes: words w0 w1 (pixel 0) w2 w3 (pixel 1) reordered w0 w2 w1 w3,
// then the low half's bytes paired with the high half's: w0b0 w1b0 w0b1 ...
// (pixel 0's eight channels), then pixel 1's.
template <typename T>
std::size_t two_passes(const uint32_t* src, std::size_t pixels, T* row, std::size_t col_pitch) {
    std::size_t px = 0;
    for (; px + 2 <= pixels; px += 2, src += 4, row += 2 * col_pitch) {
        const __m128i s = _mm_shuffle_epi32(load(src), _MM_SHUFFLE(3, 1, 2, 0));
        const __m128i channels = _mm_unpacklo_epi8(s, _mm_srli_si128(s, 8));
        store<8>(channels, row);
        store<8>(_mm_srli_si128(channels, 8), row + col_pitch);
    }
    return px;
}

// Four passes: a 4x4 byte transposition of the pixel's words, one pixel a load.
template <typename T>
std::size_t four_passes(const uint32_t* src, std::size_t pixels, T* row, std::size_t col_pitch) {
    for (std::size_t px = 0; px < pixels; ++px, src += 4, row += col_pitch) {
        const __m128i v = load(src);
        const __m128i w01 = _mm_unpacklo_epi8(v, _mm_srli_si128(v, 4));
        const __m128i w23 = _mm_unpacklo_epi8(_mm_srli_si128(v, 8), _mm_srli_si128(v, 12));
        store<16>(_mm_unpacklo_epi16(w01, w23), row);
    }
    return pixels;
}

template <typename T>
std::size_t sse2_pixels(const uint32_t* src, std::size_t pixels, uint32_t passes, T* row, std::size_t col_pitch) {
    switch (passes) {
        case 1: return one_pass(src, pixels, row, col_pitch);
        case 2: return two_passes(src, pixels, row, col_pitch);
        case 4: return four_passes(src, pixels, row, col_pitch);
        default: return 0;
    }
}
#endif

template <typename T>
void move_pixels(const uint32_t* src, std::size_t pixels, uint32_t passes, T* row, std::size_t col_pitch,
                 ByteMoves how) {
    std::size_t done = 0;
#if defined(__SSE2__)
    if (how == ByteMoves::best) done = sse2_pixels(src, pixels, passes, row, col_pitch);
#endif
    (void)how;
    plain_pixels(src + done * passes, pixels - done, passes, row + done * col_pitch, col_pitch);
}

}  // namespace

void pixel_channels(const uint32_t* src, std::size_t pixels, uint32_t passes, int16_t* row, std::size_t col_pitch,
                    ByteMoves how) {
    move_pixels(src, pixels, passes, row, col_pitch, how);
}

void pixel_channels(const uint32_t* src, std::size_t pixels, uint32_t passes, int8_t* row, std::size_t col_pitch,
                    ByteMoves how) {
    move_pixels(src, pixels, passes, row, col_pitch, how);
}

}  // namespace ai8x
