// Weight formats: ranges from the vendor's table and two's-complement decoding
// of every raw field and every packed byte.
#include <catch2/catch.hpp>

#include <cstdint>

#include "model/arith.h"

using namespace ai8x::arith;

namespace {

// Two's complement by definition: the top bit weighs -2^(bits-1).
int twos_complement(unsigned field, int bits) {
    const int top = (field >> (bits - 1)) & 1;
    const int rest = static_cast<int>(field & ((1u << (bits - 1)) - 1u));
    return rest - top * (1 << (bits - 1));
}

}  // namespace

TEST_CASE("weight ranges follow the vendor table", "[arith]") {
    CHECK(weight_min(WeightFormat::Bits8) == -128);
    CHECK(weight_max(WeightFormat::Bits8) == 127);
    CHECK(weight_min(WeightFormat::Bits4) == -8);
    CHECK(weight_max(WeightFormat::Bits4) == 7);
    CHECK(weight_min(WeightFormat::Bits2) == -2);
    CHECK(weight_max(WeightFormat::Bits2) == 1);
    CHECK(weight_min(WeightFormat::Bits1) == -1);
    CHECK(weight_max(WeightFormat::Bits1) == 0);
    CHECK(weight_min(WeightFormat::Binary) == -1);
    CHECK(weight_max(WeightFormat::Binary) == 1);
}

TEST_CASE("quantization setting selects the weight format", "[arith]") {
    CHECK(weight_format_from_quantization(8) == WeightFormat::Bits8);
    CHECK(weight_format_from_quantization(4) == WeightFormat::Bits4);
    CHECK(weight_format_from_quantization(2) == WeightFormat::Bits2);
    CHECK(weight_format_from_quantization(1) == WeightFormat::Bits1);
    CHECK(weight_format_from_quantization(-1) == WeightFormat::Binary);
    for (int bad : {0, 3, 5, 16, -2}) CHECK_THROWS_AS(weight_format_from_quantization(bad), std::invalid_argument);
}

TEST_CASE("every raw weight field decodes as two's complement", "[arith]") {
    for (WeightFormat f : {WeightFormat::Bits8, WeightFormat::Bits4, WeightFormat::Bits2, WeightFormat::Bits1}) {
        const int bits = weight_bits(f);
        for (unsigned raw = 0; raw < 256; ++raw) {
            const unsigned field = raw & ((1u << bits) - 1u);
            REQUIRE(decode_weight(raw, f) == twos_complement(field, bits));
        }
    }
    CHECK(decode_weight(1, WeightFormat::Bits1) == -1);
    CHECK(decode_weight(0, WeightFormat::Bits1) == 0);
    CHECK(decode_weight(1, WeightFormat::Binary) == -1);
    CHECK(decode_weight(0, WeightFormat::Binary) == 1);
}

TEST_CASE("encode_weight inverts decode_weight over the whole range", "[arith]") {
    for (WeightFormat f :
         {WeightFormat::Bits8, WeightFormat::Bits4, WeightFormat::Bits2, WeightFormat::Bits1, WeightFormat::Binary}) {
        for (int v = -200; v <= 200; ++v) {
            const bool representable =
                v >= weight_min(f) && v <= weight_max(f) && !(f == WeightFormat::Binary && v == 0);
            if (representable) {
                REQUIRE(encode_weight(v, f) < (1u << weight_bits(f)));
                REQUIRE(decode_weight(encode_weight(v, f), f) == v);
            } else {
                REQUIRE_THROWS_AS(encode_weight(v, f), std::out_of_range);
            }
        }
    }
}

TEST_CASE("packed bytes hold 8/bits weights, lowest sub-index in the low bits", "[arith]") {
    for (WeightFormat f :
         {WeightFormat::Bits8, WeightFormat::Bits4, WeightFormat::Bits2, WeightFormat::Bits1, WeightFormat::Binary}) {
        const int bits = weight_bits(f);
        for (unsigned byte = 0; byte < 256; ++byte) {
            for (int i = 0; i < 8 / bits; ++i) {
                const unsigned field = (byte >> (i * bits)) & ((1u << bits) - 1u);
                const int expected = f == WeightFormat::Binary ? (field ? -1 : 1) : twos_complement(field, bits);
                REQUIRE(unpack_weight(static_cast<uint8_t>(byte), i, f) == expected);
            }
            REQUIRE_THROWS_AS(unpack_weight(static_cast<uint8_t>(byte), 8 / bits, f), std::out_of_range);
            REQUIRE_THROWS_AS(unpack_weight(static_cast<uint8_t>(byte), -1, f), std::out_of_range);
        }
    }
    // 2-bit example: 0b01'10'11'00 holds 0, -1, -2, +1 from low to high.
    CHECK(unpack_weight(0b01101100, 0, WeightFormat::Bits2) == 0);
    CHECK(unpack_weight(0b01101100, 1, WeightFormat::Bits2) == -1);
    CHECK(unpack_weight(0b01101100, 2, WeightFormat::Bits2) == -2);
    CHECK(unpack_weight(0b01101100, 3, WeightFormat::Bits2) == 1);
}
