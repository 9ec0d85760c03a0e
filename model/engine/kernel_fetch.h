// Kernel memory access: which weight a processor uses for a given output
// channel, input pass and kernel tap, following the mask address sequence the
// hardware walks from the mask start to the mask end address.
//
// Mask addresses are bit-granular inside a "kernel slot": a slot holds one
// kernel (9 bytes for 3x3, k bytes for 1-D, 1 byte for 1x1) and has 8 address
// units, so a q-bit kernel advances the address by q and 8/q narrow kernels share
// one slot, each in its own q-bit field of every byte. Slots are packed back to
// back in the 72-bit words in fill order: fill position p of a word is
// KernelWord[p] (model/accel_state.h), so byte b of a processor's fill
// stream is byte b of its words back to back. A kernel's taps are filled
// last tap first, so tap t of a 3x3 kernel sits in KernelWord[8 - t]. The
// 1-D start field (LREG_ONED[7:4]) offsets the first slot by whole bytes.
//
// The bus side (model/memories/kernel_memory_port.*) sees a word the other
// way round: the byte written at word offset +0 bits 7..0, the first of an
// express ("mexpress") stream's nine, is KernelWord[8]; offset +4 bits 31..0
// (most significant first) are KernelWord[7..4], offset +8 KernelWord[3..0].
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/accel_state.h"
#include "model/engine/dot_kernel.h"
#include "model/engine/layer_config.h"

namespace ai8x {

// Dense weights of one layer: index with at(o, i, j, t).
struct LayerWeights {
    uint32_t outputs = 0;     // channel positions x output passes
    uint32_t processors = 0;  // mask-enabled processors (order of LayerConfig::processors)
    uint32_t passes = 0;
    uint32_t taps = 0;  // kernel_rows * kernel_cols
    std::vector<int8_t> values;
    std::vector<int> processor_index;  // LayerConfig::processors index of each weight processor
    // Where output o is written: output pass * channel positions + channel
    // position. Empty where that is o itself (every layer but a broadcast
    // depth-wise one whose processors leave gaps).
    std::vector<uint32_t> slots;

    uint32_t slot(uint32_t o) const { return slots.empty() ? o : slots[o]; }

    int8_t at(uint32_t o, uint32_t i, uint32_t j, uint32_t t) const {
        return values[((static_cast<std::size_t>(o) * processors + i) * passes + j) * taps + t];
    }
};

// The layer's weight shape (outputs, weight processors, passes, taps), no values.
LayerWeights weight_shape(const LayerConfig& cfg);

// Where decoded weights go: weight (o, i, j, t) of an output, weight
// processor, input pass and tap at at[output(o) + kernel(i)[j * taps + t]],
// outputs in blocks of kBlockOutputs: output o at (o / kBlockOutputs) *
// block_step + (o % kBlockOutputs) * lane_step. A dense LayerWeights and the
// kernel's packed blocks (conv_layout.h) are two such orders; decoding into
// either reads kernel memory the same way.
template <typename T>
struct WeightPlaces {
    T* at = nullptr;
    std::size_t block_step = 0, lane_step = 0;
    const std::size_t* kernel_offset = nullptr;  // per (processor, pass, tap), in that order
    uint32_t passes = 0, taps = 0;
    // Non-zero: the places at[0 .. unset) hold no values yet, and the decoder
    // zeroes every one it does not write (else they are left as they were).
    std::size_t unset = 0;

    std::size_t output(uint32_t o) const { return o / kBlockOutputs * block_step + o % kBlockOutputs * lane_step; }
    const std::size_t* kernel(uint32_t i) const { return kernel_offset + std::size_t{i} * passes * taps; }
};

// Decodes the weights of every mask-enabled processor. Addresses beyond the
// mask end give weight 0 (the hardware stops there); kernel words beyond the
// memory give weight 0 and one warning per processor.
LayerWeights fetch_weights(const AcceleratorState& state, const LayerConfig& cfg, std::vector<EngineWarning>& warnings);

// The same weights (and warnings) as fetch_weights() for a layer that is
// neither bypass nor depth-wise, written to `to` (`shape` from weight_shape())
// instead of a dense array; places of weights beyond the mask end or memory
// are left as they were (zeroed where `to` is unset).
void decode_weights(const AcceleratorState& state, const LayerConfig& cfg, const LayerWeights& shape,
                    const WeightPlaces<int16_t>& to, std::vector<EngineWarning>& warnings);
// The same into int8 places (the kernel's byte operands).
void decode_weights(const AcceleratorState& state, const LayerConfig& cfg, const LayerWeights& shape,
                    const WeightPlaces<int8_t>& to, std::vector<EngineWarning>& warnings);

}  // namespace ai8x
