// Pooling and element-wise rules, checked against the documented behaviour
// evaluated independently (floating-point mean, byte-level bit operations).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "model/arith.h"

using namespace ai8x::arith;

namespace {

// Generator's pooling rules: "floor" truncates the mean towards zero;
// "rounding" rounds halves away from zero.
int documented_avg(const std::vector<int8_t>& v, bool rounding) {
    long double sum = 0;
    for (int8_t x : v) sum += x;
    long double avg = sum / v.size();
    long double r;
    if (!rounding)
        r = avg < 0 ? std::ceil(avg) : std::floor(avg);
    else
        r = avg < 0 ? std::ceil(avg - 0.5L) : std::floor(avg + 0.5L);
    return static_cast<int>(r);
}

int clamp8(long long v) { return v < -128 ? -128 : (v > 127 ? 127 : static_cast<int>(v)); }

}  // namespace

TEST_CASE("max pooling of every pair", "[arith]") {
    for (int a = -128; a <= 127; ++a)
        for (int b = -128; b <= 127; ++b) {
            const int8_t v[2] = {static_cast<int8_t>(a), static_cast<int8_t>(b)};
            REQUIRE(max_pool(v, 2) == (a > b ? a : b));
        }
    CHECK_THROWS_AS(max_pool(nullptr, 0), std::invalid_argument);
}

TEST_CASE("average pooling of every pair, both rounding modes", "[arith]") {
    for (int a = -128; a <= 127; ++a)
        for (int b = -128; b <= 127; ++b) {
            const std::vector<int8_t> v = {static_cast<int8_t>(a), static_cast<int8_t>(b)};
            REQUIRE(avg_pool(v.data(), 2, AvgPoolRounding::Truncate) == documented_avg(v, false));
            REQUIRE(avg_pool(v.data(), 2, AvgPoolRounding::Round) == documented_avg(v, true));
        }
}

TEST_CASE("average pooling over larger windows", "[arith]") {
    std::mt19937 rng(1234);
    std::uniform_int_distribution<int> byte(-128, 127);
    for (std::size_t n : {1u, 3u, 4u, 6u, 9u, 12u, 16u, 64u, 256u}) {
        for (int trial = 0; trial < 20000; ++trial) {
            std::vector<int8_t> v(n);
            // Mix full-range windows with small values that hit exact halves often.
            const bool small = trial % 2 == 0;
            for (auto& x : v) x = static_cast<int8_t>(small ? byte(rng) % 4 : byte(rng));
            INFO("n = " << n << " trial " << trial);
            REQUIRE(avg_pool(v.data(), n, AvgPoolRounding::Truncate) == documented_avg(v, false));
            REQUIRE(avg_pool(v.data(), n, AvgPoolRounding::Round) == documented_avg(v, true));
        }
    }
}

TEST_CASE("average pooling: vendor examples", "[arith]") {
    // 2x2 window [[0, 0], [0, 3]]: floor gives 0, rounding gives 1.
    const int8_t w[4] = {0, 0, 0, 3};
    CHECK(avg_pool(w, 4, AvgPoolRounding::Truncate) == 0);
    CHECK(avg_pool(w, 4, AvgPoolRounding::Round) == 1);
    // Negative means truncate towards zero, halves round away from zero.
    const int8_t n[4] = {0, 0, 0, -3};
    CHECK(avg_pool(n, 4, AvgPoolRounding::Truncate) == 0);
    CHECK(avg_pool(n, 4, AvgPoolRounding::Round) == -1);
    const int8_t h[2] = {-1, -2};
    CHECK(avg_pool(h, 2, AvgPoolRounding::Truncate) == -1);
    CHECK(avg_pool(h, 2, AvgPoolRounding::Round) == -2);
    CHECK(avg_divide(7, 2, AvgPoolRounding::Round) == 4);
    CHECK(avg_divide(-7, 2, AvgPoolRounding::Round) == -4);
    CHECK(avg_divide(-7, 2, AvgPoolRounding::Truncate) == -3);
    CHECK_THROWS_AS(avg_divide(1, 0, AvgPoolRounding::Round), std::invalid_argument);
}

TEST_CASE("two-operand element-wise ops on every pair", "[arith]") {
    for (int a = -128; a <= 127; ++a)
        for (int b = -128; b <= 127; ++b) {
            const int8_t v[2] = {static_cast<int8_t>(a), static_cast<int8_t>(b)};
            // Bitwise results are defined on the stored bytes.
            const auto ua = static_cast<uint8_t>(a), ub = static_cast<uint8_t>(b);
            const int xor_byte = static_cast<int8_t>(static_cast<uint8_t>(ua ^ ub));
            const int or_byte = static_cast<int8_t>(static_cast<uint8_t>(ua | ub));
            REQUIRE(eltwise8(EltwiseOp::Add, v, 2) == clamp8(a + b));
            REQUIRE(eltwise8(EltwiseOp::Sub, v, 2) == clamp8(a - b));
            REQUIRE(eltwise8(EltwiseOp::Xor, v, 2) == xor_byte);
            REQUIRE(eltwise8(EltwiseOp::Or, v, 2) == or_byte);
            REQUIRE(eltwise_full(EltwiseOp::Add, v, 2) == a + b);
            REQUIRE(eltwise_full(EltwiseOp::Sub, v, 2) == a - b);
        }
    // Vendor example: 1/64 + 1/2 = 33/64 -> 0100 0010.
    const int8_t ex[2] = {0b00000010, 0b01000000};
    CHECK(eltwise8(EltwiseOp::Add, ex, 2) == 0b01000010);
}

TEST_CASE("multi-operand element-wise ops saturate only at the end", "[arith]") {
    // 100 + 100 - 120 would become 7 with saturation after each step; full
    // resolution gives 80.
    const int8_t add3[3] = {100, 100, -120};
    CHECK(eltwise8(EltwiseOp::Add, add3, 3) == 80);
    const int8_t sub3[3] = {-100, 100, -120};
    CHECK(eltwise8(EltwiseOp::Sub, sub3, 3) == -80);
    std::mt19937 rng(99);
    std::uniform_int_distribution<int> byte(-128, 127);
    for (int trial = 0; trial < 100000; ++trial) {
        const std::size_t n = 2 + trial % 15;  // up to 16 operands
        std::vector<int8_t> v(n);
        for (auto& x : v) x = static_cast<int8_t>(byte(rng));
        long long sum = v[0], diff = v[0];
        uint8_t x_or = static_cast<uint8_t>(v[0]), o_r = static_cast<uint8_t>(v[0]);
        for (std::size_t i = 1; i < n; ++i) {
            sum += v[i];
            diff -= v[i];
            x_or ^= static_cast<uint8_t>(v[i]);
            o_r |= static_cast<uint8_t>(v[i]);
        }
        REQUIRE(eltwise8(EltwiseOp::Add, v.data(), n) == clamp8(sum));
        REQUIRE(eltwise8(EltwiseOp::Sub, v.data(), n) == clamp8(diff));
        REQUIRE(eltwise8(EltwiseOp::Xor, v.data(), n) == static_cast<int8_t>(x_or));
        REQUIRE(eltwise8(EltwiseOp::Or, v.data(), n) == static_cast<int8_t>(o_r));
    }
    CHECK_THROWS_AS(eltwise8(EltwiseOp::Add, nullptr, 0), std::invalid_argument);
}
