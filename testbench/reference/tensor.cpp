#include "testbench/reference/tensor.h"

#include <stdexcept>

namespace ai8x::reference {

namespace {

std::size_t checked_count(std::initializer_list<int> dims, const char* what) {
    std::size_t n = 1;
    for (int d : dims) {
        if (d < 0) throw std::invalid_argument(std::string(what) + " with a negative dimension");
        n *= static_cast<std::size_t>(d);
    }
    return n;
}

}  // namespace

Tensor::Tensor(int c, int h, int w, int64_t fill)
    : channels(c), height(h), width(w), values(checked_count({c, h, w}, "tensor"), fill) {}

std::string Tensor::shape_string() const {
    return std::to_string(channels) + "x" + std::to_string(height) + "x" + std::to_string(width);
}

Weights::Weights(int out, int in, int kh, int kw)
    : out_channels(out),
      in_channels(in),
      kernel_h(kh),
      kernel_w(kw),
      values(checked_count({out, in, kh, kw}, "weights"), 0) {}

}  // namespace ai8x::reference
