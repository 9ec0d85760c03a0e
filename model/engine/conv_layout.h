// A convolution layer's operands rearranged once per layer for the dot-product
// kernel (dot_kernel.h), so the per-pixel work is a few block copies and dot
// products instead of per-tap index arithmetic:
//
//  * the input as one padded, channel-last int16 image: the values all weight
//    processors see at one padded position sit next to each other;
//  * the weights as one int16 row per output channel, in the same
//    (kernel row, kernel column, channel) order and zero-padded to kDotLanes.
//
// A "channel" here is one (weight processor, input pass) pair, numbered
// processor * passes + pass, the order of LayerWeights.
#pragma once

#include <cstdint>
#include <vector>

#include "model/engine/input_fetch.h"
#include "model/engine/kernel_fetch.h"

namespace ai8x {

struct ConvImage {
    uint32_t rows = 0, cols = 0;  // padded geometry
    uint32_t channels = 0;
    std::vector<int16_t> values;  // (row * cols + col) * channels + channel
};

// Copies the planes of the weight processors into a zero-padded channel-last
// image. Padding is inserted after pooling; with `spread` > 1 every value is
// followed by spread - 1 zeros in both directions (transposed convolution).
ConvImage make_conv_image(const InputPlanes& in, const LayerWeights& weights, uint32_t pad_rows, uint32_t pad_cols,
                          uint32_t spread);

struct ConvWeightRows {
    uint32_t length = 0;          // taps * channels rounded up to kDotLanes
    std::vector<int16_t> values;  // output * length + tap * channels + channel
    const int16_t* row(uint32_t output) const { return values.data() + std::size_t{output} * length; }
};

ConvWeightRows make_weight_rows(const LayerWeights& weights);

// Gathers the receptive fields of consecutive output pixels into rows of
// `length` values (ConvWeightRows order), zero tail included: row p holds the
// window of output pixel first + p, pixels numbered row-major over `out_cols`.
class ReceptiveFields {
public:
    ReceptiveFields(const ConvImage& image, uint32_t kernel_rows, uint32_t kernel_cols, uint32_t out_cols,
                    uint32_t length);
    void gather(std::size_t first, std::size_t count);
    const int16_t* row(std::size_t p) const { return rows_.data() + p * length_; }

private:
    const ConvImage& image_;
    uint32_t kernel_rows_, kernel_cols_, out_cols_;
    std::size_t length_;
    std::vector<int16_t> rows_;
};

}  // namespace ai8x
