// The convolution's dot-product kernel and operand layout. Expected values are
// plain int64 loops over the int8 operands written here, independent of the
// SIMD code; the extreme-value cases are the ones where a 32-bit partial sum
// would overflow if the kernel did not split long rows.
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <vector>

#include "model/engine/conv_layout.h"
#include "model/engine/dot_kernel.h"

using namespace ai8x;

namespace {

int64_t naive_dot(const std::vector<int16_t>& a, const std::vector<int16_t>& b) {
    int64_t s = 0;
    for (std::size_t k = 0; k < a.size(); ++k) s += int64_t{a[k]} * int64_t{b[k]};
    return s;
}

std::vector<int16_t> random_row(std::mt19937& rng, std::size_t length) {
    std::uniform_int_distribution<int> value(-128, 127);
    std::vector<int16_t> row(length);
    for (auto& v : row) v = static_cast<int16_t>(value(rng));
    return row;
}

// Runs both kernel paths on one data row and `rows` weight rows, starting from `start` sums.
void check_rows(const std::vector<int16_t>& x, const std::vector<std::vector<int16_t>>& w, int64_t start) {
    const unsigned rows = static_cast<unsigned>(w.size());
    const int16_t* ptr[kDotMaxRows] = {};
    for (unsigned r = 0; r < rows; ++r) ptr[r] = w[r].data();
    int64_t fast[kDotMaxRows], portable[kDotMaxRows];
    for (unsigned r = 0; r < rows; ++r) fast[r] = portable[r] = start;
    accumulate_dots(x.data(), ptr, rows, x.size(), fast);
    accumulate_dots_portable(x.data(), ptr, rows, x.size(), portable);
    for (unsigned r = 0; r < rows; ++r) {
        INFO("row " << r << " of " << rows << ", length " << x.size());
        CHECK(fast[r] == start + naive_dot(x, w[r]));
        CHECK(portable[r] == start + naive_dot(x, w[r]));
    }
}

}  // namespace

TEST_CASE("dot kernel sums random int8 rows exactly for 1 to 4 weight rows", "[engine][dot]") {
    std::mt19937 rng(12345);
    INFO("AVX2 path: " << dot_kernel_uses_avx2());
    for (std::size_t length : {std::size_t{16}, std::size_t{48}, std::size_t{592}, std::size_t{4096}}) {
        const std::vector<int16_t> x = random_row(rng, length);
        for (unsigned rows = 1; rows <= kDotMaxRows; ++rows) {
            std::vector<std::vector<int16_t>> w;
            for (unsigned r = 0; r < rows; ++r) w.push_back(random_row(rng, length));
            check_rows(x, w, -1234567);
        }
    }
}

TEST_CASE("dot kernel stays exact where 32-bit partial sums would overflow", "[engine][dot]") {
    // 2^18 products of (-128) * (-128) = 2^14 each sum to 2^32.
    const std::size_t length = std::size_t{1} << 18;
    const std::vector<int16_t> x(length, -128);
    std::vector<std::vector<int16_t>> w = {std::vector<int16_t>(length, -128), std::vector<int16_t>(length, 127)};
    check_rows(x, w, 0);
    int64_t sums[1] = {0};
    const int16_t* row = w[0].data();
    accumulate_dots(x.data(), &row, 1, length, sums);
    CHECK(sums[0] == (int64_t{1} << 32));
}

TEST_CASE("weight rows follow (tap, channel) order with a zero tail", "[engine][dot]") {
    LayerWeights lw;
    lw.outputs = 2;
    lw.processors = 3;
    lw.passes = 1;
    lw.taps = 2;
    // values[(o * processors + i) * taps + t] = 100 * o + 10 * i + t
    for (uint32_t o = 0; o < 2; ++o)
        for (uint32_t i = 0; i < 3; ++i)
            for (uint32_t t = 0; t < 2; ++t) lw.values.push_back(static_cast<int8_t>(100 * o + 10 * i + t));
    const ConvWeightRows rows = make_weight_rows(lw);
    REQUIRE(rows.length == kDotLanes);  // 6 used values padded to one lane group
    const std::vector<int16_t> expect_row1 = {100, 110, 120, 101, 111, 121};
    for (std::size_t k = 0; k < rows.length; ++k) {
        INFO("k = " << k);
        CHECK(rows.row(1)[k] == (k < expect_row1.size() ? expect_row1[k] : 0));
    }
}

TEST_CASE("conv image is channel-last, zero-padded and spread for transposed convolution", "[engine][dot]") {
    InputPlanes in;
    in.rows = 2;
    in.cols = 2;
    in.passes = 1;
    in.planes = {{{1, 2, 3, 4}}, {{-1, -2, -3, -4}}};
    LayerWeights lw;
    lw.processors = 2;
    lw.passes = 1;
    lw.processor_index = {1, 0};  // weight processor 0 reads plane 1
    const ConvImage image = make_conv_image(in, lw, 1, 0, 2);
    REQUIRE(image.rows == 6);
    REQUIRE(image.cols == 4);
    REQUIRE(image.channels == 2);
    auto at = [&](uint32_t r, uint32_t c, uint32_t ch) { return image.values[(r * image.cols + c) * 2 + ch]; };
    CHECK(at(1, 0, 0) == -1);
    CHECK(at(1, 0, 1) == 1);
    CHECK(at(1, 2, 1) == 2);
    CHECK(at(3, 2, 0) == -4);
    CHECK(at(0, 0, 0) == 0);
    CHECK(at(1, 1, 1) == 0);
    CHECK(at(2, 0, 1) == 0);
}
