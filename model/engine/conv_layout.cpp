#include "model/engine/conv_layout.h"

#include <algorithm>

#include "model/engine/dot_kernel.h"

namespace ai8x {

ConvImage make_conv_image(const InputPlanes& in, const LayerWeights& weights, uint32_t pad_rows, uint32_t pad_cols,
                          uint32_t spread) {
    ConvImage image;
    image.rows = in.rows * spread + 2 * pad_rows;
    image.cols = in.cols * spread + 2 * pad_cols;
    image.channels = weights.processors * weights.passes;
    image.values.assign(std::size_t{image.rows} * image.cols * image.channels, 0);
    for (uint32_t i = 0; i < weights.processors; ++i) {
        for (uint32_t j = 0; j < weights.passes; ++j) {
            const std::vector<int8_t>& plane = in.plane(weights.processor_index[i], j);
            int16_t* dst = image.values.data() + (std::size_t{i} * weights.passes + j);
            for (uint32_t r = 0; r < in.rows; ++r) {
                const std::size_t padded_row = std::size_t{r} * spread + pad_rows;
                for (uint32_t c = 0; c < in.cols; ++c) {
                    const std::size_t position = padded_row * image.cols + std::size_t{c} * spread + pad_cols;
                    dst[position * image.channels] = plane[std::size_t{r} * in.cols + c];
                }
            }
        }
    }
    return image;
}

ConvWeightRows make_weight_rows(const LayerWeights& weights) {
    ConvWeightRows rows;
    const std::size_t channels = std::size_t{weights.processors} * weights.passes;
    const std::size_t used = channels * weights.taps;
    rows.length = static_cast<uint32_t>((used + kDotLanes - 1) / kDotLanes * kDotLanes);
    rows.values.assign(std::size_t{weights.outputs} * rows.length, 0);
    // LayerWeights order is (output, channel, tap); the rows want (tap, channel).
    const int8_t* src = weights.values.data();
    for (uint32_t o = 0; o < weights.outputs; ++o) {
        int16_t* dst = rows.values.data() + std::size_t{o} * rows.length;
        for (std::size_t ch = 0; ch < channels; ++ch)
            for (uint32_t t = 0; t < weights.taps; ++t) dst[t * channels + ch] = *src++;
    }
    return rows;
}

ReceptiveFields::ReceptiveFields(const ConvImage& image, uint32_t kernel_rows, uint32_t kernel_cols, uint32_t out_cols,
                                 uint32_t length)
    : image_(image), kernel_rows_(kernel_rows), kernel_cols_(kernel_cols), out_cols_(out_cols), length_(length) {}

void ReceptiveFields::gather(std::size_t first, std::size_t count) {
    // Every call writes the same window part of each row, so the zero tail
    // that pads a row to kDotLanes only needs clearing when the buffer grows.
    if (rows_.size() < count * length_) rows_.assign(count * length_, 0);
    const std::size_t segment = std::size_t{kernel_cols_} * image_.channels;  // one kernel row of the window
    for (std::size_t p = 0; p < count; ++p) {
        const std::size_t r = (first + p) / out_cols_, c = (first + p) % out_cols_;
        int16_t* dst = rows_.data() + p * length_;
        for (uint32_t kr = 0; kr < kernel_rows_; ++kr) {
            const int16_t* src = image_.values.data() + ((r + kr) * image_.cols + c) * image_.channels;
            std::copy(src, src + segment, dst + kr * segment);
        }
    }
}

}  // namespace ai8x
