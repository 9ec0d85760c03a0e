#include "testbench/reference/reference_layer.h"

#include <stdexcept>
#include <utility>

namespace ai8x::reference {

namespace {

[[noreturn]] void fail(const std::string& what) { throw std::invalid_argument("reference layer: " + what); }

bool is_conv_type(Op op) { return op != Op::Passthrough; }

// Conv1d uses only the first element of each pair; the second stays neutral.
LayerParams normalized(const LayerParams& p) {
    LayerParams n = p;
    if (p.op == Op::Conv1d) {
        n.kernel[1] = 1;
        n.stride[1] = 1;
        n.padding[1] = 0;
        n.dilation[1] = 1;
        n.pool_size[1] = 1;
        n.pool_stride[1] = 1;
        n.pool_dilation[1] = 1;
    }
    return n;
}

void check_positive(const Pair& v, const char* name) {
    if (v[0] < 1 || v[1] < 1)
        fail(std::string(name) + " must be at least 1, got " + std::to_string(v[0]) + "x" + std::to_string(v[1]));
}

int pooled_dim(int in, int size, int stride, const char* axis) {
    // Windows start every `stride` positions and must fit entirely.
    const int out = (in - size) / stride + 1;
    if (in < size || out < 1)
        fail(std::string("pooling window larger than the input ") + axis + " (" + std::to_string(in) + " < " +
             std::to_string(size) + ")");
    return out;
}

int conv_dim(int in, int kernel, int stride, int pad, int dilation, const char* axis) {
    const int span = dilation * (kernel - 1) + 1;
    const int padded = in + 2 * pad;
    if (padded < span)
        fail(std::string("kernel does not fit the padded input ") + axis + " (" + std::to_string(padded) + " < " +
             std::to_string(span) + ")");
    return (padded - span) / stride + 1;
}

int transposed_dim(int in, int kernel, int stride, int pad, int dilation, int out_pad, const char* axis) {
    const int out = (in - 1) * stride - 2 * pad + dilation * (kernel - 1) + out_pad + 1;
    if (out < 1) fail(std::string("transposed convolution output ") + axis + " is empty");
    return out;
}

// Correlation of `in` with `w` where the input is read through a zero border:
// output (y, x) reads input (y*stride + ky*dil - pad_top, x*stride + kx*dil - pad_left).
Tensor correlate(const Tensor& in, const Weights& w, int groups, Pair stride, Pair dilation, Pair pad_before,
                 Pair out_dims, const Bias& bias) {
    Tensor out(w.out_channels, out_dims[0], out_dims[1]);
    const int out_per_group = w.out_channels / groups;
    for (int o = 0; o < w.out_channels; ++o) {
        const int first_in = (o / out_per_group) * w.in_channels;
        const int64_t base = bias.empty() ? 0 : arith::scaled_bias(bias[o]);
        for (int y = 0; y < out_dims[0]; ++y) {
            for (int x = 0; x < out_dims[1]; ++x) {
                int64_t acc = base;
                for (int i = 0; i < w.in_channels; ++i) {
                    for (int ky = 0; ky < w.kernel_h; ++ky) {
                        const int iy = y * stride[0] + ky * dilation[0] - pad_before[0];
                        if (iy < 0 || iy >= in.height) continue;
                        for (int kx = 0; kx < w.kernel_w; ++kx) {
                            const int ix = x * stride[1] + kx * dilation[1] - pad_before[1];
                            if (ix < 0 || ix >= in.width) continue;
                            acc = arith::mac(acc, static_cast<int8_t>(in.at(first_in + i, iy, ix)), w.at(o, i, ky, kx));
                        }
                    }
                }
                out.at(o, y, x) = acc;
            }
        }
    }
    return out;
}

void check_int8(const Tensor& t, const char* what) {
    for (int64_t v : t.values)
        if (v < arith::kDataMin || v > arith::kDataMax)
            fail(std::string(what) + " holds " + std::to_string(v) + ", outside the 8-bit range");
}

}  // namespace

Pair pooled_size(int height, int width, const LayerParams& params) {
    const LayerParams p = normalized(params);
    check_positive(p.pool_size, "pool size");
    check_positive(p.pool_stride, "pool stride");
    check_positive(p.pool_dilation, "pool dilation");
    const Pair span{(p.pool_size[0] - 1) * p.pool_dilation[0] + 1, (p.pool_size[1] - 1) * p.pool_dilation[1] + 1};
    return {pooled_dim(height, span[0], p.pool_stride[0], "height"),
            pooled_dim(width, span[1], p.pool_stride[1], "width")};
}

Pair output_size(int height, int width, const LayerParams& params) {
    const LayerParams p = normalized(params);
    if (p.op == Op::Passthrough) return {height, width};
    check_positive(p.kernel, "kernel");
    check_positive(p.stride, "stride");
    check_positive(p.dilation, "dilation");
    if (p.padding[0] < 0 || p.padding[1] < 0) fail("negative padding");
    if (p.op == Op::ConvTranspose2d)
        return {
            transposed_dim(height, p.kernel[0], p.stride[0], p.padding[0], p.dilation[0], p.output_padding[0],
                           "height"),
            transposed_dim(width, p.kernel[1], p.stride[1], p.padding[1], p.dilation[1], p.output_padding[1], "width")};
    return {conv_dim(height, p.kernel[0], p.stride[0], p.padding[0], p.dilation[0], "height"),
            conv_dim(width, p.kernel[1], p.stride[1], p.padding[1], p.dilation[1], "width")};
}

Tensor pool(const Tensor& input, const LayerParams& params) {
    const LayerParams p = normalized(params);
    if (p.op == Op::Conv1d && input.width != 1) fail("conv1d data must have width 1");
    if (p.pool == PoolType::None && (p.pool_size[0] > 1 || p.pool_size[1] > 1))
        fail("pool size given without a pool type");
    check_int8(input, "pooling input");
    const Pair dims = pooled_size(input.height, input.width, p);
    Tensor out(input.channels, dims[0], dims[1]);
    // The 1D model of the generator ignores the rounding option.
    const arith::AvgPoolRounding rounding = p.op == Op::Conv1d ? arith::AvgPoolRounding::Truncate : p.avg_rounding;
    std::vector<int8_t> window;
    for (int c = 0; c < input.channels; ++c) {
        for (int y = 0; y < dims[0]; ++y) {
            for (int x = 0; x < dims[1]; ++x) {
                window.clear();
                for (int py = 0; py < p.pool_size[0]; ++py)
                    for (int px = 0; px < p.pool_size[1]; ++px)
                        window.push_back(static_cast<int8_t>(input.at(c, y * p.pool_stride[0] + py * p.pool_dilation[0],
                                                                      x * p.pool_stride[1] + px * p.pool_dilation[1])));
                if (p.pool == PoolType::Avg)
                    out.at(c, y, x) = arith::avg_pool(window.data(), window.size(), rounding);
                else  // max, or plain subsampling when the window is 1x1
                    out.at(c, y, x) = arith::max_pool(window.data(), window.size());
            }
        }
    }
    return out;
}

Tensor combine(const std::vector<Tensor>& operands, arith::EltwiseOp op, bool clip8) {
    if (operands.empty()) fail("element-wise operation without operands");
    const Tensor& first = operands.front();
    for (const Tensor& t : operands)
        if (t.channels != first.channels || t.height != first.height || t.width != first.width)
            fail("element-wise operands differ in shape (" + first.shape_string() + " vs " + t.shape_string() + ")");
    Tensor out(first.channels, first.height, first.width);
    std::vector<int8_t> values(operands.size());
    for (std::size_t n = 0; n < out.size(); ++n) {
        for (std::size_t k = 0; k < operands.size(); ++k) values[k] = static_cast<int8_t>(operands[k].values[n]);
        out.values[n] = clip8 ? arith::eltwise8(op, values.data(), values.size())
                              : arith::eltwise_full(op, values.data(), values.size());
    }
    return out;
}

Tensor accumulate(const Tensor& input, const LayerParams& params, const Weights& weights, const Bias& bias) {
    const LayerParams p = normalized(params);
    if (!is_conv_type(p.op)) fail("accumulate() called for a passthrough layer");
    if (p.op == Op::Conv1d && input.width != 1) fail("conv1d data must have width 1");
    if (p.op == Op::Linear && (p.kernel[0] != 1 || p.kernel[1] != 1 || p.padding[0] != 0 || p.padding[1] != 0))
        fail("linear layers use 1x1 kernels without padding");
    if (p.groups < 1 || input.channels % p.groups != 0 || p.out_channels % p.groups != 0)
        fail("groups (" + std::to_string(p.groups) + ") must divide input (" + std::to_string(input.channels) +
             ") and output (" + std::to_string(p.out_channels) + ") channels");
    if (weights.out_channels != p.out_channels || weights.in_channels != input.channels / p.groups ||
        weights.kernel_h != p.kernel[0] || weights.kernel_w != p.kernel[1])
        fail("weights are " + std::to_string(weights.out_channels) + "x" + std::to_string(weights.in_channels) + "x" +
             std::to_string(weights.kernel_h) + "x" + std::to_string(weights.kernel_w) + ", layer needs " +
             std::to_string(p.out_channels) + "x" + std::to_string(input.channels / p.groups) + "x" +
             std::to_string(p.kernel[0]) + "x" + std::to_string(p.kernel[1]));
    if (!bias.empty() && static_cast<int>(bias.size()) != p.out_channels)
        fail("bias has " + std::to_string(bias.size()) + " entries for " + std::to_string(p.out_channels) +
             " output channels");
    check_int8(input, "operator input");

    const Pair out_dims = output_size(input.height, input.width, p);
    if (p.op != Op::ConvTranspose2d)
        return correlate(input, weights, p.groups, p.stride, p.dilation, p.padding, out_dims, bias);

    // Transposed convolution as the generator computes it: spread the input
    // `stride` apart with zeros, then correlate at stride 1 over a border of
    // dilation*(kernel-1) - padding (plus output_padding at the far end, which
    // the zero border of correlate() supplies). The weights are expected in the
    // orientation of that correlation.
    Tensor spread(input.channels, (input.height - 1) * p.stride[0] + 1, (input.width - 1) * p.stride[1] + 1);
    for (int c = 0; c < input.channels; ++c)
        for (int y = 0; y < input.height; ++y)
            for (int x = 0; x < input.width; ++x) spread.at(c, y * p.stride[0], x * p.stride[1]) = input.at(c, y, x);
    const Pair border{p.dilation[0] * (p.kernel[0] - 1) - p.padding[0],
                      p.dilation[1] * (p.kernel[1] - 1) - p.padding[1]};
    if (border[0] < 0 || border[1] < 0) fail("transposed convolution padding exceeds the kernel");
    return correlate(spread, weights, p.groups, {1, 1}, p.dilation, border, out_dims, bias);
}

Tensor run_layer(const LayerParams& params, const std::vector<Tensor>& inputs, const Weights& weights,
                 const Bias& bias) {
    if (inputs.empty()) fail("no input tensor");
    for (const Tensor& t : inputs) check_int8(t, "layer input");
    if (params.wide_output && params.activation != arith::Activation::None)
        fail("32-bit output cannot be combined with an activation");
    if (params.flatten && params.op != Op::Linear && params.op != Op::Conv2d)
        fail("flatten requires a linear or conv2d operator");
    const bool multi = inputs.size() > 1;
    // Element-wise results feeding a convolution are always 8-bit; a
    // passthrough layer may forward them at full resolution as 32-bit output.
    const bool clip8 = is_conv_type(params.op) || !params.wide_output;

    std::vector<Tensor> data = inputs;
    if (multi && !params.pool_first) data = {combine(data, params.eltwise, clip8)};
    const bool pooling = params.pool != PoolType::None || params.pool_stride[0] > 1 || params.pool_stride[1] > 1 ||
                         params.pool_size[0] > 1 || params.pool_size[1] > 1;
    if (pooling)
        for (Tensor& t : data) t = pool(t, params);
    Tensor x = data.size() > 1 ? combine(data, params.eltwise, clip8) : data.front();

    if (!is_conv_type(params.op)) return x;

    if (params.flatten) {
        // (C,H,W) -> (C*H*W,1,1): the value order is already C-major.
        Tensor flat(x.channels * x.height * x.width, 1, 1);
        flat.values = x.values;
        x = std::move(flat);
    }
    Tensor out = accumulate(x, params, weights, bias);
    for (int64_t& v : out.values)
        v = params.wide_output ? arith::wide_output(v)
                               : arith::finish_output(v, params.output_shift, params.activation);
    return out;
}

}  // namespace ai8x::reference
