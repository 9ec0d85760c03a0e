#include "model/arith.h"

#include <stdexcept>

namespace ai8x::arith {

namespace {

// Floor division for a positive divisor (C++ '/' truncates towards zero).
int64_t floor_div(int64_t num, int64_t den) {
    int64_t q = num / den;
    if ((num % den != 0) && (num < 0)) --q;
    return q;
}

void check_shift(int output_shift) {
    if (output_shift < kOutputShiftMin || output_shift > kOutputShiftMax)
        throw std::out_of_range("output shift " + std::to_string(output_shift) + " outside [-15, +15]");
}

}  // namespace

int8_t saturate8(int64_t value) {
    if (value < kDataMin) return static_cast<int8_t>(kDataMin);
    if (value > kDataMax) return static_cast<int8_t>(kDataMax);
    return static_cast<int8_t>(value);
}

int64_t scaled_bias(int8_t bias) { return static_cast<int64_t>(bias) * kBiasScale; }

int64_t shift_and_round(int64_t acc, int output_shift) {
    check_shift(output_shift);
    // acc * 2^shift / 128 = acc * 2^(shift - 7); the division by 128 is the Q7 product scale.
    const int exponent = output_shift - 7;
    if (exponent >= 0) return acc * (int64_t{1} << exponent);
    const int64_t divisor = int64_t{1} << -exponent;
    // floor(0.5 + acc / d) == floor((acc + d/2) / d) for d a power of two >= 2.
    return floor_div(acc + divisor / 2, divisor);
}

// The 5-bit sign-magnitude shift code (the register's SCALE_SHFT:SCALE_REG pair).
constexpr uint32_t kShiftCodeMagnitude = 0x0fu, kShiftCodeNegative = 0x10u;

uint32_t encode_output_shift(int output_shift) {
    check_shift(output_shift);
    if (output_shift < 0) return kShiftCodeNegative | static_cast<uint32_t>(-output_shift);
    return static_cast<uint32_t>(output_shift);
}

int decode_output_shift(uint32_t field) {
    const int magnitude = static_cast<int>(field & kShiftCodeMagnitude);
    return (field & kShiftCodeNegative) ? -magnitude : magnitude;
}

int8_t activate(int8_t value, Activation act) {
    switch (act) {
        case Activation::None: return value;
        case Activation::ReLU: return value < 0 ? int8_t{0} : value;
        case Activation::Abs: return saturate8(value < 0 ? -static_cast<int>(value) : value);
    }
    return value;
}

int8_t finish_output(int64_t acc, int output_shift, Activation act) {
    return activate(saturate8(shift_and_round(acc, output_shift)), act);
}

int32_t wide_output(int64_t acc) { return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(acc))); }

int8_t max_pool(const int8_t* values, std::size_t count) {
    if (count == 0) throw std::invalid_argument("max_pool over zero values");
    int8_t best = values[0];
    for (std::size_t i = 1; i < count; ++i)
        if (values[i] > best) best = values[i];
    return best;
}

int64_t avg_divide(int64_t sum, int64_t count, AvgPoolRounding rounding) {
    if (count <= 0) throw std::invalid_argument("average pooling over zero values");
    if (rounding == AvgPoolRounding::Truncate) return sum / count;
    // Round half away from zero: |sum|/count + 1/2, truncated, with the sign restored.
    const int64_t magnitude = (2 * (sum < 0 ? -sum : sum) + count) / (2 * count);
    return sum < 0 ? -magnitude : magnitude;
}

int8_t avg_pool(const int8_t* values, std::size_t count, AvgPoolRounding rounding) {
    int64_t sum = 0;
    for (std::size_t i = 0; i < count; ++i) sum += values[i];
    return saturate8(avg_divide(sum, static_cast<int64_t>(count), rounding));
}

int64_t eltwise_full(EltwiseOp op, const int8_t* operands, std::size_t count) {
    if (count == 0) throw std::invalid_argument("element-wise operation without operands");
    int64_t result = operands[0];
    for (std::size_t i = 1; i < count; ++i) {
        const int64_t v = operands[i];
        switch (op) {
            case EltwiseOp::Add: result += v; break;
            case EltwiseOp::Sub: result -= v; break;
            case EltwiseOp::Xor: result ^= v; break;
            case EltwiseOp::Or: result |= v; break;
        }
    }
    return result;
}

int8_t eltwise8(EltwiseOp op, const int8_t* operands, std::size_t count) {
    return saturate8(eltwise_full(op, operands, count));
}

int weight_bits(WeightFormat format) {
    switch (format) {
        case WeightFormat::Bits8: return 8;
        case WeightFormat::Bits4: return 4;
        case WeightFormat::Bits2: return 2;
        case WeightFormat::Bits1:
        case WeightFormat::Binary: return 1;
    }
    return 8;
}

WeightFormat weight_format_from_quantization(int quantization) {
    switch (quantization) {
        case 8: return WeightFormat::Bits8;
        case 4: return WeightFormat::Bits4;
        case 2: return WeightFormat::Bits2;
        case 1: return WeightFormat::Bits1;
        case -1: return WeightFormat::Binary;
        default:
            throw std::invalid_argument("weight quantization " + std::to_string(quantization) +
                                        " is not one of 1, 2, 4, 8 or -1 (binary)");
    }
}

int weight_min(WeightFormat format) { return format == WeightFormat::Binary ? -1 : -(1 << (weight_bits(format) - 1)); }

int weight_max(WeightFormat format) {
    return format == WeightFormat::Binary ? 1 : (1 << (weight_bits(format) - 1)) - 1;
}

int8_t decode_weight(uint32_t raw, WeightFormat format) {
    const int bits = weight_bits(format);
    const uint32_t field = raw & ((1u << bits) - 1u);
    if (format == WeightFormat::Binary) return field ? int8_t{-1} : int8_t{1};
    const uint32_t sign = 1u << (bits - 1);
    return static_cast<int8_t>(static_cast<int>(field ^ sign) - static_cast<int>(sign));
}

uint32_t encode_weight(int value, WeightFormat format) {
    if (value < weight_min(format) || value > weight_max(format) || (format == WeightFormat::Binary && value == 0))
        throw std::out_of_range("weight " + std::to_string(value) + " not representable in " +
                                std::to_string(weight_bits(format)) + "-bit format");
    if (format == WeightFormat::Binary) return value < 0 ? 1u : 0u;
    const int bits = weight_bits(format);
    return static_cast<uint32_t>(value) & ((1u << bits) - 1u);
}

int8_t unpack_weight(uint8_t byte, int sub_index, WeightFormat format) {
    const int bits = weight_bits(format);
    if (sub_index < 0 || sub_index >= 8 / bits)
        throw std::out_of_range("weight sub-index " + std::to_string(sub_index) + " invalid for " +
                                std::to_string(bits) + "-bit weights");
    return decode_weight(static_cast<uint32_t>(byte) >> (sub_index * bits), format);
}

std::string to_string(Activation act) {
    switch (act) {
        case Activation::None: return "none";
        case Activation::ReLU: return "relu";
        case Activation::Abs: return "abs";
    }
    return "?";
}

std::string to_string(EltwiseOp op) {
    switch (op) {
        case EltwiseOp::Add: return "add";
        case EltwiseOp::Sub: return "sub";
        case EltwiseOp::Xor: return "xor";
        case EltwiseOp::Or: return "or";
    }
    return "?";
}

}  // namespace ai8x::arith
