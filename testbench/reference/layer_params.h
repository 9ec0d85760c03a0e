// What one accelerator layer computes, described the way the network YAML and
// the generator describe it (not how the registers encode it).
#pragma once

#include <array>
#include <string>

#include "model/arith.h"

namespace ai8x::reference {

enum class Op { Passthrough, Conv1d, Conv2d, ConvTranspose2d, Linear };
enum class PoolType { None, Max, Avg };

// Pairs are (height, width); 1D layers use only the first element and keep the
// second at its neutral value (kernel/pool/stride/dilation 1, padding 0).
using Pair = std::array<int, 2>;

struct LayerParams {
    Op op = Op::Conv2d;
    int out_channels = 0;  // ignored for Passthrough
    Pair kernel{3, 3};
    Pair stride{1, 1};  // ConvTranspose2d: the upsampling (fractional) stride
    Pair padding{1, 1};
    Pair dilation{1, 1};
    Pair output_padding{0, 0};  // ConvTranspose2d only
    int groups = 1;

    PoolType pool = PoolType::None;
    Pair pool_size{1, 1};
    Pair pool_stride{1, 1};
    // MAX78002 pool dilation: the window takes every pool_dilation-th row and
    // column, spanning (pool_size - 1) * pool_dilation + 1 of them.
    Pair pool_dilation{1, 1};
    arith::AvgPoolRounding avg_rounding = arith::AvgPoolRounding::Truncate;

    // Multi-operand layers: the inputs are combined element-wise, after pooling
    // when pool_first is set (the default), else before.
    arith::EltwiseOp eltwise = arith::EltwiseOp::Add;
    bool pool_first = true;

    bool flatten = false;  // (C,H,W) -> (C*H*W,1,1) before a Linear/Conv2d op
    arith::Activation activation = arith::Activation::None;
    int output_shift = 0;      // total shift as in the generator (incl. 8 - weight bits)
    bool wide_output = false;  // 32-bit Q17.14 output instead of 8-bit
};

std::string to_string(Op op);
std::string to_string(PoolType pool);
// One-line summary for test and error messages.
std::string describe(const LayerParams& p);

}  // namespace ai8x::reference
