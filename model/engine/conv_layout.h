// A convolution layer's operands rearranged once per layer for the matrix
// product of dot_kernel.h, so the per-pixel work is vector multiply-adds
// instead of per-tap index arithmetic:
//
//  * the input as one padded, channel-last int16 image: the values all weight
//    processors see at one padded position sit next to each other, so a
//    kernel row of a receptive field is one contiguous segment;
//  * the weights packed in blocks of kBlockOutputs output channels, per
//    kernel row and pair of segment values (ConvProblem says how).
//
// A "channel" here is one (weight processor, input pass) pair, numbered
// processor * passes + pass, the order of LayerWeights.
#pragma once

#include <cstdint>
#include <memory>
#include <new>
#include <utility>
#include <vector>

#include "model/engine/dot_kernel.h"
#include "model/engine/input_fetch.h"
#include "model/engine/kernel_fetch.h"

namespace ai8x {

// An allocator whose resize() leaves new values unset: for buffers some
// decoder writes in full (zeroing them first would cost as much again).
template <typename T>
struct UnsetAllocator : std::allocator<T> {
    template <typename U>
    struct rebind {
        using other = UnsetAllocator<U>;
    };
    UnsetAllocator() = default;
    template <typename U>
    UnsetAllocator(const UnsetAllocator<U>&) noexcept {}
    template <typename U>
    void construct(U* p) noexcept {
        ::new (static_cast<void*>(p)) U;
    }
    template <typename U, typename... Args>
    void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
};

struct ConvImage {
    uint32_t rows = 0, cols = 0;  // padded geometry
    uint32_t channels = 0;
    // (row * cols + col) * channels + channel, then kImageSlack zeros.
    std::vector<int16_t> values;
    // The same values as bytes, then kByteImageSlack zeros, when every value
    // lies in [0, 127]: the byte operands of dot_kernel.h. Empty otherwise
    // (make_byte_image() fills it).
    std::vector<uint8_t, UnsetAllocator<uint8_t>> bytes;

    // An all-zero image of that geometry (slack included).
    ConvImage(uint32_t rows, uint32_t cols, uint32_t channels);
    int16_t* at(uint32_t row, uint32_t col) { return values.data() + (std::size_t{row} * cols + col) * channels; }
};

// Fills image.bytes and returns true when every value of the image is in
// [0, 127]; leaves it empty and returns false otherwise.
bool make_byte_image(ConvImage& image);

// Copies the planes of the weight processors into a zero-padded channel-last
// image. Padding is inserted after pooling; with `spread` > 1 every value is
// followed by spread - 1 zeros in both directions (transposed convolution).
ConvImage make_conv_image(const InputPlanes& in, const LayerWeights& weights, uint32_t pad_rows, uint32_t pad_cols,
                          uint32_t spread);

// The packed weights in one of the kernel's two layouts: int16 pairs
// (`values`, ConvProblem::weights) or, for byte operands, int8 quads
// (`bytes`, ConvProblem::weight_bytes); the other vector stays empty.
struct PackedWeights {
    uint32_t kernel_rows = 0, row_pairs = 0, blocks = 0;
    uint32_t row_quads = 0;  // set in both layouts
    bool quads = false;
    std::vector<int16_t> values;
    // Written in full by whoever fills it (fetch_packed_weights() lets the
    // decoder zero what it does not write), so never zeroed first.
    std::vector<int8_t, UnsetAllocator<int8_t>> bytes;

    // Start of block `b`'s weights in the pair layout.
    const int16_t* block(uint32_t b) const {
        return values.data() + std::size_t{b} * kernel_rows * row_pairs * kBlockOutputs * 2;
    }
    // The same in the quad layout.
    const int8_t* block_bytes(uint32_t b) const {
        return bytes.data() + std::size_t{b} * kernel_rows * row_quads * kBlockOutputs * 4;
    }
};

// Packs LayerWeights (output, processor, pass, tap) for kernels of
// `kernel_rows` x `kernel_cols` taps, in pairs or (`quads`) quads.
PackedWeights pack_weights(const LayerWeights& weights, uint32_t kernel_rows, uint32_t kernel_cols, bool quads = false);

// The layer's weights packed straight from kernel memory: the same values and
// warnings as pack_weights(fetch_weights()), without the dense array between
// (bypass and depth-wise layers, whose weights are not read as stored, go
// that way). `shape` receives the weights' shape; its values are left empty
// unless the dense way was taken.
PackedWeights fetch_packed_weights(const AcceleratorState& state, const LayerConfig& cfg, LayerWeights& shape,
                                   std::vector<EngineWarning>& warnings, bool quads = false);

}  // namespace ai8x
