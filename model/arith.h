// Per-value number rules of the CNN accelerator: the arithmetic that turns
// 8-bit data, 1/2/4/8-bit weights and 8-bit bias into 8-bit (or 32-bit) output
// values. Each function is one documented rule, free of state, so that both the
// register-driven layer engine and the independent reference model use exactly
// the same definitions and the unit tests can check each rule on its own.
//
// Number format (vendor "Number Format" chapter): data, weights and bias are
// two's-complement Q7 values; products and sums are kept at full resolution and
// only the final result is rounded ("half towards +infinity") and saturated.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace ai8x::arith {

constexpr int kDataMin = -128;
constexpr int kDataMax = 127;

// Bias values are 8-bit but enter the accumulator at the scale of a product of
// two Q7 numbers, i.e. multiplied by 128 (the generator's BIAS_DIV).
constexpr int kBiasScale = 128;

// Range of the signed output shift as the generator passes it to the hardware
// (already including the implicit 8 - weight_bits shift of narrow weights).
constexpr int kOutputShiftMin = -15;
constexpr int kOutputShiftMax = 15;

// --- Saturation -------------------------------------------------------------

// Clamps to [-128, +127]: the implicit non-linearity of every 8-bit output.
int8_t saturate8(int64_t value);

// --- Accumulation -----------------------------------------------------------

// Accumulator contribution of one bias byte (bias * 128).
int64_t scaled_bias(int8_t bias);

// Full-resolution multiply-accumulate; no intermediate rounding or saturation.
inline int64_t mac(int64_t acc, int8_t data, int8_t weight) {
    return acc + static_cast<int64_t>(data) * static_cast<int64_t>(weight);
}

// --- Output scaling ---------------------------------------------------------

// Scales the accumulator by 2^output_shift / 128 and rounds half towards
// +infinity: floor(0.5 + acc * 2^shift / 128). No saturation. output_shift must
// be within [kOutputShiftMin, kOutputShiftMax] (throws std::out_of_range).
int64_t shift_and_round(int64_t acc, int output_shift);

// 5-bit register encoding of the output shift (sign-magnitude: bit 4 set means
// a negative shift, bits 3..0 hold the magnitude). encode throws
// std::out_of_range outside [-15, +15]; decode uses only the low 5 bits.
uint32_t encode_output_shift(int output_shift);
int decode_output_shift(uint32_t field);

// --- Activation -------------------------------------------------------------

enum class Activation { None, ReLU, Abs };

// Applied to the already saturated 8-bit value. ReLU clamps to [0, 127];
// Abs takes |v| and clamps to [0, 127] (so -128 becomes 127).
int8_t activate(int8_t value, Activation act);

// The complete 8-bit output path of a convolution-type layer:
// shift_and_round -> saturate8 -> activate.
int8_t finish_output(int64_t acc, int output_shift, Activation act);

// 32-bit "wide" output (Q17.14): the raw accumulator, neither shifted nor
// clamped; only the low 32 bits are stored (two's-complement wrap).
int32_t wide_output(int64_t acc);

// --- Pooling ----------------------------------------------------------------

// How average pooling divides (global CTL bit "avg_pool_rounding").
enum class AvgPoolRounding {
    Truncate,  // default: quotient truncated towards zero (the vendor calls it "floor")
    Round      // nearest, halves away from zero
};

int8_t max_pool(const int8_t* values, std::size_t count);
// Sum of `count` values divided by `count`, rounded as selected; saturated.
int8_t avg_pool(const int8_t* values, std::size_t count, AvgPoolRounding rounding);
// Division rule alone, exposed for the engine that accumulates sums itself.
int64_t avg_divide(int64_t sum, int64_t count, AvgPoolRounding rounding);

// --- Element-wise operations ------------------------------------------------

enum class EltwiseOp { Add, Sub, Xor, Or };

// Folds the operands left to right (op0 OP op1 OP op2 ...) at full resolution;
// Sub subtracts every further operand from the first. Bitwise operations act on
// the sign-extended two's-complement values.
int64_t eltwise_full(EltwiseOp op, const int8_t* operands, std::size_t count);
// 8-bit result: eltwise_full saturated once at the end.
int8_t eltwise8(EltwiseOp op, const int8_t* operands, std::size_t count);

// --- Weights ----------------------------------------------------------------

// Weight element formats: 8/4/2-bit and 1-bit two's complement (1-bit: 1 -> -1,
// 0 -> 0), and the alternative 1-bit "binary" format (1 -> -1, 0 -> +1) that
// only some devices support.
enum class WeightFormat { Bits8, Bits4, Bits2, Bits1, Binary };

int weight_bits(WeightFormat format);
// From the layer's quantization setting: 1, 2, 4, 8, or -1 for binary.
// Throws std::invalid_argument for anything else.
WeightFormat weight_format_from_quantization(int quantization);

// Value range a format can represent (e.g. Bits2: [-2, +1]).
int weight_min(WeightFormat format);
int weight_max(WeightFormat format);

// Sign-extends one raw field of weight_bits(format) bits (higher bits ignored).
int8_t decode_weight(uint32_t raw, WeightFormat format);
// Inverse of decode_weight; throws std::out_of_range if the value is not representable.
uint32_t encode_weight(int value, WeightFormat format);

// Narrow weights are packed several to a byte: the weight with sub-index i
// (0 .. 8/bits - 1) occupies bits [i*bits, (i+1)*bits) of the byte.
int8_t unpack_weight(uint8_t byte, int sub_index, WeightFormat format);

std::string to_string(Activation act);
std::string to_string(EltwiseOp op);

}  // namespace ai8x::arith
