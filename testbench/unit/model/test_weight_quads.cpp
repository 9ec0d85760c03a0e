// The byte moves of the weights' quad layout (model/engine/weight_quads.h):
// the host's best implementation against the plain loops, and both against
// what the layout means, on random bytes and every length up to three
// vectors (the 16-, 8- and 4-byte loads and their mixes).
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "model/engine/weight_quads.h"

using namespace ai8x;

TEST_CASE("bytes turned into columns: each column holds one position of every row", "[engine][weight_quads]") {
    std::mt19937 rng(7);
    for (std::size_t length = 1; length <= 48; ++length) {
        const std::size_t stride = length + rng() % 5;
        std::vector<uint8_t> rows(kColumnBytes * stride + 16);
        for (uint8_t& b : rows) b = static_cast<uint8_t>(rng());
        const std::size_t padded = (length + 15) / 16 * 16;
        std::vector<uint8_t> best(padded * kColumnBytes, 0), plain(padded * kColumnBytes, 0);
        bytes_to_columns(rows.data(), stride, length, best.data(), ByteMoves::best);
        bytes_to_columns(rows.data(), stride, length, plain.data(), ByteMoves::plain);
        INFO("length " << length << " row stride " << stride);
        for (std::size_t k = 0; k < length; ++k)
            for (std::size_t l = 0; l < kColumnBytes; ++l) {
                REQUIRE(plain[k * kColumnBytes + l] == rows[l * stride + k]);
                REQUIRE(best[k * kColumnBytes + l] == rows[l * stride + k]);
            }
    }
}

TEST_CASE("columns interleaved into quad steps, each step from its own four columns", "[engine][weight_quads]") {
    std::mt19937 rng(8);
    constexpr std::size_t kColumns = 9, kSteps = 5;
    std::vector<uint8_t> columns(kColumns * kColumnBytes);
    for (uint8_t& b : columns) b = static_cast<uint8_t>(rng());
    std::vector<uint32_t> offsets(4 * kSteps);
    for (uint32_t& offset : offsets) offset = static_cast<uint32_t>(rng() % kColumns * kColumnBytes);
    std::vector<int8_t> best(kSteps * 4 * kColumnBytes, 1), plain(kSteps * 4 * kColumnBytes, 1);
    interleave_quads(columns.data(), offsets.data(), kSteps, best.data(), ByteMoves::best);
    interleave_quads(columns.data(), offsets.data(), kSteps, plain.data(), ByteMoves::plain);
    for (std::size_t s = 0; s < kSteps; ++s)
        for (std::size_t l = 0; l < kColumnBytes; ++l)
            for (std::size_t v = 0; v < 4; ++v) {
                const int8_t want = static_cast<int8_t>(columns[offsets[4 * s + v] + l]);
                INFO("step " << s << " output " << l << " value " << v);
                REQUIRE(plain[s * 4 * kColumnBytes + 4 * l + v] == want);
                REQUIRE(best[s * 4 * kColumnBytes + 4 * l + v] == want);
            }
}

TEST_CASE("columns interleaved into int16 pair steps, each step from its own two columns", "[engine][weight_quads]") {
    std::mt19937 rng(16);
    constexpr std::size_t kColumns = 7, kSteps = 6;
    std::vector<uint8_t> columns(kColumns * kColumnBytes);
    for (uint8_t& b : columns) b = static_cast<uint8_t>(rng());
    std::vector<uint32_t> offsets(2 * kSteps);
    for (uint32_t& offset : offsets) offset = static_cast<uint32_t>(rng() % kColumns * kColumnBytes);
    std::vector<int16_t> best(kSteps * 2 * kColumnBytes, 1), plain(kSteps * 2 * kColumnBytes, 1);
    interleave_pairs(columns.data(), offsets.data(), kSteps, best.data(), ByteMoves::best);
    interleave_pairs(columns.data(), offsets.data(), kSteps, plain.data(), ByteMoves::plain);
    int negative = 0;
    for (std::size_t s = 0; s < kSteps; ++s)
        for (std::size_t l = 0; l < kColumnBytes; ++l)
            for (std::size_t v = 0; v < 2; ++v) {
                const int16_t want = static_cast<int8_t>(columns[offsets[2 * s + v] + l]);
                INFO("step " << s << " output " << l << " value " << v);
                REQUIRE(plain[s * 2 * kColumnBytes + 2 * l + v] == want);
                REQUIRE(best[s * 2 * kColumnBytes + 2 * l + v] == want);
                negative += want < 0;
            }
    CHECK(negative > 20);  // signs are extended, not zero-filled
}
