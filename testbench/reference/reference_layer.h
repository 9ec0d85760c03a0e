// Independent reference of what one accelerator layer computes, written from
// the vendor's documented layer semantics (network YAML keys and the generator's
// own numeric simulation), in plain loops over (C,H,W) tensors. It knows
// nothing of registers, memories, processors or passes, which is what makes it
// useful as an oracle for the register-driven layer engine.
//
// Order of operations inside a layer:
//   1. multi-operand inputs combined element-wise (only if !pool_first)
//   2. pooling of every operand
//   3. multi-operand inputs combined element-wise (if pool_first)
//   4. flatten (optional), then the operator: convolution-type ops accumulate
//      at full resolution, add bias * 128 and produce 8-bit (shift, round,
//      saturate, activate) or 32-bit output; passthrough forwards the data.
//
// Invalid parameter combinations throw std::invalid_argument naming the problem.
#pragma once

#include <vector>

#include "testbench/reference/layer_params.h"
#include "testbench/reference/tensor.h"

namespace ai8x::reference {

Tensor run_layer(const LayerParams& params, const std::vector<Tensor>& inputs, const Weights& weights,
                 const Bias& bias);

// The individual stages, exposed for unit tests and for diagnosing mismatches.

// Pooling (step 2). Conv1d layers pool along the height only and, as the
// generator's 1D model does, always truncate average pools.
Tensor pool(const Tensor& input, const LayerParams& params);

// Element-wise combination; saturates to 8 bits when clip8 is set.
Tensor combine(const std::vector<Tensor>& operands, arith::EltwiseOp op, bool clip8);

// Full-resolution accumulators of a convolution-type op including bias * 128
// (no output scaling). `input` is the pooled/combined/flattened data.
Tensor accumulate(const Tensor& input, const LayerParams& params, const Weights& weights, const Bias& bias);

// Output dimensions of the pooling and of the operator, for callers that size
// memories (throw if the result would be empty).
Pair pooled_size(int height, int width, const LayerParams& params);
Pair output_size(int height, int width, const LayerParams& params);

}  // namespace ai8x::reference
