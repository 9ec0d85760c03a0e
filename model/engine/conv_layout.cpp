#include "model/engine/conv_layout.h"

#include <algorithm>

namespace ai8x {

ConvImage::ConvImage(uint32_t rows_, uint32_t cols_, uint32_t channels_)
    : rows(rows_), cols(cols_), channels(channels_), values(std::size_t{rows_} * cols_ * channels_ + kImageSlack, 0) {}

ConvImage make_conv_image(const InputPlanes& in, const LayerWeights& weights, uint32_t pad_rows, uint32_t pad_cols,
                          uint32_t spread) {
    ConvImage image(in.rows * spread + 2 * pad_rows, in.cols * spread + 2 * pad_cols,
                    weights.processors * weights.passes);
    for (uint32_t i = 0; i < weights.processors; ++i) {
        for (uint32_t j = 0; j < weights.passes; ++j) {
            const std::vector<int8_t>& plane = in.plane(weights.processor_index[i], j);
            const std::size_t channel = std::size_t{i} * weights.passes + j;
            for (uint32_t r = 0; r < in.rows; ++r) {
                int16_t* dst = image.at(r * spread + pad_rows, pad_cols) + channel;
                const int8_t* src = plane.data() + std::size_t{r} * in.cols;
                for (uint32_t c = 0; c < in.cols; ++c) dst[std::size_t{c} * spread * image.channels] = src[c];
            }
        }
    }
    return image;
}

bool make_byte_image(ConvImage& image) {
    // Two plain loops the compiler vectorises: a value is outside [0, 127]
    // exactly when one of its bits 7..15 is set; then the narrowing copy.
    const int16_t* values = image.values.data();
    const std::size_t count = image.values.size();
    uint16_t high_bits = 0;
    for (std::size_t n = 0; n < count; ++n) high_bits |= static_cast<uint16_t>(values[n]);
    image.bytes.clear();
    if (high_bits & 0xff80u) return false;
    image.bytes.resize(count - kImageSlack + kByteImageSlack);  // not zeroed: written whole below
    uint8_t* bytes = image.bytes.data();
    for (std::size_t n = 0; n < count; ++n) bytes[n] = static_cast<uint8_t>(values[n]);
    std::fill(image.bytes.begin() + static_cast<std::ptrdiff_t>(count), image.bytes.end(), uint8_t{0});
    return true;
}

namespace {

// All-zero packed weights of `weights`' shape, in pairs or (`quads`) quads.
// An all-zero packing of that shape; with `unset`, quads are left for the
// decoder to write or zero (WeightPlaces::unset).
PackedWeights zero_packed(const LayerWeights& weights, uint32_t kernel_rows, uint32_t kernel_cols, bool quads,
                          bool unset = false) {
    PackedWeights packed;
    const uint32_t segment = kernel_cols * weights.processors * weights.passes;
    packed.kernel_rows = kernel_rows;
    packed.row_pairs = (segment + 1) / 2;
    packed.row_quads = (segment + 3) / 4;
    packed.quads = quads;
    packed.blocks = static_cast<uint32_t>((weights.outputs + kBlockOutputs - 1) / kBlockOutputs);
    const std::size_t row_values = quads ? std::size_t{packed.row_quads} * 4 : std::size_t{packed.row_pairs} * 2;
    const std::size_t size = std::size_t{packed.blocks} * kernel_rows * row_values * kBlockOutputs;
    if (quads && unset)
        packed.bytes.resize(size);
    else if (quads)
        packed.bytes.assign(size, 0);
    else
        packed.values.assign(size, 0);
    return packed;
}

// Offsets of the weights of a block's lane 0 in the layout of `packed`, per
// (channel, tap): tap t of channel ch (processor * passes + pass) sits in its
// kernel row's segment at position s = kernel column * channels + ch, value
// s % group of step s / group (group 2: pairs, 4: quads); lane l adds l * group.
std::vector<std::size_t> kernel_places(const PackedWeights& packed, uint32_t channels, uint32_t taps,
                                       uint32_t kernel_cols) {
    const std::size_t group = packed.quads ? 4 : 2, step_values = kBlockOutputs * group;
    const std::size_t row_values = (packed.quads ? packed.row_quads : packed.row_pairs) * step_values;
    std::vector<std::size_t> places(std::size_t{channels} * taps);
    for (uint32_t ch = 0; ch < channels; ++ch)
        for (uint32_t t = 0; t < taps; ++t) {
            const std::size_t s = std::size_t{t % kernel_cols} * channels + ch;
            places[std::size_t{ch} * taps + t] = t / kernel_cols * row_values + s / group * step_values + s % group;
        }
    return places;
}

// pack_weights() in quads: every weight to its place.
void pack_quads(const LayerWeights& weights, uint32_t kernel_cols, PackedWeights& packed) {
    const uint32_t channels = weights.processors * weights.passes;
    const std::vector<std::size_t> places = kernel_places(packed, channels, weights.taps, kernel_cols);
    const std::size_t block_values = std::size_t{packed.kernel_rows} * packed.row_quads * kBlockOutputs * 4;
    const int8_t* src = weights.values.data();
    for (uint32_t o = 0; o < weights.outputs; ++o) {
        int8_t* lane = packed.bytes.data() + o / kBlockOutputs * block_values + o % kBlockOutputs * 4;
        for (std::size_t k = 0; k < places.size(); ++k) lane[places[k]] = *src++;
    }
}

}  // namespace

PackedWeights pack_weights(const LayerWeights& weights, uint32_t kernel_rows, uint32_t kernel_cols, bool quads) {
    PackedWeights packed = zero_packed(weights, kernel_rows, kernel_cols, quads);
    if (quads) {
        pack_quads(weights, kernel_cols, packed);
        return packed;
    }
    const uint32_t channels = weights.processors * weights.passes;
    const std::size_t pair_values = kBlockOutputs * 2;
    const std::size_t row_values = std::size_t{packed.row_pairs} * pair_values;
    // LayerWeights order is (output, channel, tap); inside a block tap t of
    // channel ch sits in its kernel row's segment at position s = kernel
    // column * channels + ch: value s % 2 of pair s / 2. With an even channel
    // count that place is a tap part plus a channel part: the tap's place,
    // then channels 2p and 2p + 1 as pair p.
    const std::size_t taps = weights.taps;
    const bool separable = channels % 2 == 0;
    std::vector<std::size_t> tap_place(taps);
    for (std::size_t t = 0; t < taps; ++t)
        tap_place[t] = t / kernel_cols * row_values + (separable ? t % kernel_cols * channels / 2 * pair_values : 0);
    const int8_t* src = weights.values.data();
    for (uint32_t o = 0; o < weights.outputs; ++o) {
        int16_t* block = packed.values.data() + o / kBlockOutputs * kernel_rows * row_values + o % kBlockOutputs * 2;
        if (separable) {  // tap by tap, the channels' pairs one after the other
            for (std::size_t t = 0; t < taps; ++t) {
                int16_t* dst = block + tap_place[t];
                const int8_t* value = src + t;
                for (std::size_t ch = 0; ch < channels; ch += 2, dst += pair_values, value += 2 * taps)
                    dst[0] = value[0], dst[1] = value[taps];
            }
            src += channels * taps;
            continue;
        }
        for (std::size_t ch = 0; ch < channels; ++ch, src += taps) {
            for (std::size_t t = 0; t < taps; ++t) {
                const std::size_t s = t % kernel_cols * channels + ch;
                block[tap_place[t] + s / 2 * pair_values + s % 2] = src[t];
            }
        }
    }
    return packed;
}

PackedWeights fetch_packed_weights(const AcceleratorState& state, const LayerConfig& cfg, LayerWeights& shape,
                                   std::vector<EngineWarning>& warnings, bool quads) {
    if (cfg.bypass || cfg.depthwise) {  // weights not read as stored: dense first
        shape = fetch_weights(state, cfg, warnings);
        return pack_weights(shape, cfg.kernel_rows, cfg.kernel_cols, quads);
    }
    shape = weight_shape(cfg);
    PackedWeights packed = zero_packed(shape, cfg.kernel_rows, cfg.kernel_cols, quads, true);
    // pack_weights()'s places: output o in lane o % 16 of block o / 16, each
    // (channel, tap) at its kernel_places() offset.
    const uint32_t channels = shape.processors * shape.passes;
    const std::vector<std::size_t> places = kernel_places(packed, channels, shape.taps, cfg.kernel_cols);
    const std::size_t group = quads ? 4 : 2;
    const std::size_t block_values =
        std::size_t{cfg.kernel_rows} * (quads ? packed.row_quads : packed.row_pairs) * kBlockOutputs * group;
    if (quads)
        decode_weights(
            state, cfg, shape,
            {packed.bytes.data(), block_values, group, places.data(), shape.passes, shape.taps, packed.bytes.size()},
            warnings);
    else
        decode_weights(state, cfg, shape,
                       {packed.values.data(), block_values, group, places.data(), shape.passes, shape.taps}, warnings);
    return packed;
}

}  // namespace ai8x
