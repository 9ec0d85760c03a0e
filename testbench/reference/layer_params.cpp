#include "testbench/reference/layer_params.h"

#include <sstream>

namespace ai8x::reference {

std::string to_string(Op op) {
    switch (op) {
        case Op::Passthrough: return "passthrough";
        case Op::Conv1d: return "conv1d";
        case Op::Conv2d: return "conv2d";
        case Op::ConvTranspose2d: return "convtranspose2d";
        case Op::Linear: return "linear";
    }
    return "?";
}

std::string to_string(PoolType pool) {
    switch (pool) {
        case PoolType::None: return "none";
        case PoolType::Max: return "max";
        case PoolType::Avg: return "avg";
    }
    return "?";
}

std::string describe(const LayerParams& p) {
    auto pair = [](const Pair& v) { return std::to_string(v[0]) + "x" + std::to_string(v[1]); };
    std::ostringstream s;
    s << to_string(p.op) << " out=" << p.out_channels << " k=" << pair(p.kernel) << " s=" << pair(p.stride)
      << " p=" << pair(p.padding) << " d=" << pair(p.dilation);
    if (p.op == Op::ConvTranspose2d) s << " op=" << pair(p.output_padding);
    if (p.groups != 1) s << " groups=" << p.groups;
    if (p.pool != PoolType::None)
        s << " pool=" << to_string(p.pool) << pair(p.pool_size) << "/" << pair(p.pool_stride)
          << (p.avg_rounding == arith::AvgPoolRounding::Round ? " round" : "");
    s << " multi-operand=" << arith::to_string(p.eltwise) << (p.pool_first ? "(after pool)" : "(before pool)")
      << (p.flatten ? " flatten" : "") << " act=" << arith::to_string(p.activation) << " shift=" << p.output_shift
      << (p.wide_output ? " wide" : "");
    return s.str();
}

}  // namespace ai8x::reference
