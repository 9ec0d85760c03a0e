// Output path rules: saturation, bias scale, output shift with rounding,
// activation and 32-bit output. Expected values come from the documented
// formulas evaluated independently here (floating point, byte tables), never
// from the function under test.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>

#include "model/arith.h"

using namespace ai8x::arith;

namespace {

// The vendor's definition: y = floor(0.5 + acc * 2^shift / 128), evaluated in
// long double, which is exact for the magnitudes used here.
int64_t documented_shift(int64_t acc, int shift) {
    long double scaled = std::ldexp(static_cast<long double>(acc), shift - 7);
    return static_cast<int64_t>(std::floor(0.5L + scaled));
}

}  // namespace

TEST_CASE("saturate8 clamps to the Q7 range", "[arith]") {
    for (int64_t v = -70000; v <= 70000; ++v) {
        int expected = v < -128 ? -128 : (v > 127 ? 127 : static_cast<int>(v));
        REQUIRE(saturate8(v) == expected);
    }
    CHECK(saturate8(INT64_MAX) == 127);
    CHECK(saturate8(INT64_MIN) == -128);
    // Vendor examples: 127/128 + 127/128 and -1 + -1 saturate.
    CHECK(saturate8(127 + 127) == 127);
    CHECK(saturate8(-128 + -128) == -128);
}

TEST_CASE("products and sums keep full resolution", "[arith]") {
    int64_t acc = 0;
    for (int i = 0; i < 1000; ++i) acc = mac(acc, 127, 127);
    CHECK(acc == 1000LL * 16129);
    acc = 0;
    for (int i = 0; i < 1000; ++i) acc = mac(acc, -128, -128);
    CHECK(acc == 1000LL * 16384);
    for (int d = -128; d <= 127; ++d)
        for (int w = -128; w <= 127; ++w) REQUIRE(mac(5, static_cast<int8_t>(d), static_cast<int8_t>(w)) == 5 + d * w);
}

TEST_CASE("bias enters the accumulator at product scale", "[arith]") {
    for (int b = -128; b <= 127; ++b) {
        REQUIRE(scaled_bias(static_cast<int8_t>(b)) == b * 128);
        // With no products and shift 0 the layer outputs the bias itself.
        REQUIRE(finish_output(scaled_bias(static_cast<int8_t>(b)), 0, Activation::None) == b);
    }
}

TEST_CASE("output shift matches floor(0.5 + acc * 2^shift / 128)", "[arith]") {
    for (int shift = kOutputShiftMin; shift <= kOutputShiftMax; ++shift) {
        for (int64_t acc = -300000; acc <= 300000; ++acc)
            REQUIRE(shift_and_round(acc, shift) == documented_shift(acc, shift));
        // Large accumulators (e.g. 1024 channels x 9 taps of -128*-128).
        for (int64_t acc : {int64_t{150994944}, int64_t{-150994944}, int64_t{(1LL << 31) - 1}, int64_t{-(1LL << 31)},
                            int64_t{123456789}, int64_t{-987654321}})
            REQUIRE(shift_and_round(acc, shift) == documented_shift(acc, shift));
    }
}

TEST_CASE("rounding is half towards +infinity as in the vendor table", "[arith]") {
    // Shift 5 divides by 4, so acc = 4x gives the table's x in quarter steps.
    struct Row {
        double x;
        int rounded;
    };
    const Row table[] = {
        {3.5, 4},   {3.25, 3},   {3.0, 3},   {2.75, 3},   {2.5, 3},   {2.25, 2},   {2.0, 2},   {1.75, 2},
        {1.5, 2},   {1.25, 1},   {1.0, 1},   {0.75, 1},   {0.5, 1},   {0.25, 0},   {0.0, 0},   {-0.25, 0},
        {-0.5, 0},  {-0.75, -1}, {-1.0, -1}, {-1.25, -1}, {-1.5, -1}, {-1.75, -2}, {-2.0, -2}, {-2.25, -2},
        {-2.5, -2}, {-2.75, -3}, {-3.0, -3}, {-3.25, -3}, {-3.5, -3},
    };
    for (const Row& r : table) {
        INFO("x = " << r.x);
        CHECK(shift_and_round(static_cast<int64_t>(r.x * 4), 5) == r.rounded);
    }
}

TEST_CASE("output shift outside [-15, 15] is rejected", "[arith]") {
    CHECK_THROWS_AS(shift_and_round(1, 16), std::out_of_range);
    CHECK_THROWS_AS(shift_and_round(1, -16), std::out_of_range);
    CHECK_THROWS_AS(encode_output_shift(16), std::out_of_range);
    CHECK_THROWS_AS(encode_output_shift(-16), std::out_of_range);
}

TEST_CASE("output shift register field is sign-magnitude", "[arith]") {
    CHECK(encode_output_shift(0) == 0x00);
    CHECK(encode_output_shift(1) == 0x01);
    CHECK(encode_output_shift(15) == 0x0f);
    CHECK(encode_output_shift(-1) == 0x11);
    CHECK(encode_output_shift(-7) == 0x17);
    CHECK(encode_output_shift(-15) == 0x1f);
    for (int s = -15; s <= 15; ++s) REQUIRE(decode_output_shift(encode_output_shift(s)) == s);
    // Only the five field bits count; "negative zero" decodes to zero.
    CHECK(decode_output_shift(0xffffffe3u) == 3);
    CHECK(decode_output_shift(0x10u) == 0);
}

TEST_CASE("activations clamp to [0, 127]", "[arith]") {
    for (int v = -128; v <= 127; ++v) {
        const auto x = static_cast<int8_t>(v);
        REQUIRE(activate(x, Activation::None) == v);
        REQUIRE(activate(x, Activation::ReLU) == (v < 0 ? 0 : v));
        const int magnitude = v < 0 ? -v : v;
        REQUIRE(activate(x, Activation::Abs) == (magnitude > 127 ? 127 : magnitude));
    }
}

TEST_CASE("finish_output = shift, round, saturate, activate", "[arith]") {
    for (int shift : {-15, -3, 0, 1, 7, 15}) {
        for (int64_t acc = -40000; acc <= 40000; acc += 3) {
            const int64_t y = documented_shift(acc, shift);
            const int clamped = y < -128 ? -128 : (y > 127 ? 127 : static_cast<int>(y));
            REQUIRE(finish_output(acc, shift, Activation::None) == clamped);
            REQUIRE(finish_output(acc, shift, Activation::ReLU) == (clamped < 0 ? 0 : clamped));
            const int mag = clamped < 0 ? -clamped : clamped;
            REQUIRE(finish_output(acc, shift, Activation::Abs) == (mag > 127 ? 127 : mag));
        }
    }
    // Abs after saturation: -200 saturates to -128 first, whose magnitude clamps to 127.
    CHECK(finish_output(-200 * 128, 0, Activation::Abs) == 127);
}

TEST_CASE("wide output keeps the unshifted accumulator", "[arith]") {
    CHECK(wide_output(0) == 0);
    CHECK(wide_output(-1) == -1);
    CHECK(wide_output(150994944) == 150994944);
    CHECK(wide_output(-150994944) == -150994944);
    CHECK(wide_output(2147483647) == 2147483647);
    CHECK(wide_output(-2147483648LL) == INT32_MIN);
    // Only 32 bits are stored.
    CHECK(wide_output(0x100000005LL) == 5);
    CHECK(wide_output(0x80000000LL) == INT32_MIN);
}
