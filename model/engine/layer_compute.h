// The arithmetic stages of one layer, after the input planes and weights have
// been fetched: the cross-processor convolution sum per output channel with
// bias and post-processing, and the passthrough path of layers without
// kernels (pooling and/or element-wise only).
#pragma once

#include <vector>

#include "model/accel_state.h"
#include "model/engine/conv_layout.h"
#include "model/engine/input_fetch.h"
#include "model/engine/kernel_fetch.h"
#include "model/engine/layer_config.h"
#include "model/engine/output_writer.h"

namespace ai8x {

// Sums every mask-enabled processor's contribution into each output channel
// position, adds the bias, scales/activates and writes the result. `image`:
// the input of the weight processors, padded (and spread for transposed
// convolution); `packed`: the weights (fetch_packed_weights), `weights` their
// shape. Fills the output geometry and MAC count of `stats`.
void compute_convolution(const AcceleratorState& state, const LayerConfig& cfg, const ConvImage& image,
                         const LayerWeights& weights, const PackedWeights& packed, OutputWriter& out, LayerStats& stats,
                         std::vector<EngineWarning>& warnings);

// Writes each enabled processor's pooled/combined input unchanged (activation
// applied) to its output channel position in its own quadrant.
void compute_passthrough(const LayerConfig& cfg, const InputPlanes& in, OutputWriter& out, LayerStats& stats);

}  // namespace ai8x
