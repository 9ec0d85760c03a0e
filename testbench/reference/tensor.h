// Plain value containers of the reference model: no memory layout, no
// registers, just numbers in PyTorch order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ai8x::reference {

// Feature map in (channels, height, width) order. One-dimensional data (conv1d)
// uses width == 1 and height == length. Values are int64 so that one type holds
// 8-bit data, full-resolution element-wise results and 32-bit wide outputs.
struct Tensor {
    int channels = 0;
    int height = 0;
    int width = 0;
    std::vector<int64_t> values;

    Tensor() = default;
    Tensor(int c, int h, int w, int64_t fill = 0);

    int64_t& at(int c, int h, int w) { return values[index(c, h, w)]; }
    int64_t at(int c, int h, int w) const { return values[index(c, h, w)]; }
    std::size_t size() const { return values.size(); }
    std::string shape_string() const;  // "CxHxW"

private:
    std::size_t index(int c, int h, int w) const { return (static_cast<std::size_t>(c) * height + h) * width + w; }
};

// Unpacked weights in (out_channels, in_channels / groups, kernel_h, kernel_w)
// order. Values must fit the layer's weight format (e.g. -2..1 for 2-bit).
struct Weights {
    int out_channels = 0;
    int in_channels = 0;  // per group
    int kernel_h = 0;
    int kernel_w = 0;
    std::vector<int8_t> values;

    Weights() = default;
    Weights(int out, int in, int kh, int kw);

    int8_t& at(int o, int i, int y, int x) { return values[index(o, i, y, x)]; }
    int8_t at(int o, int i, int y, int x) const { return values[index(o, i, y, x)]; }

private:
    std::size_t index(int o, int i, int y, int x) const {
        return ((static_cast<std::size_t>(o) * in_channels + i) * kernel_h + y) * kernel_w + x;
    }
};

// One 8-bit bias per output channel; empty means "no bias".
using Bias = std::vector<int8_t>;

}  // namespace ai8x::reference
