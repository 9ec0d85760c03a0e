// A convolution layer's input read straight from data memory into the padded
// channel-last image the kernel multiplies (conv_layout.h), for the layers
// most networks are made of: HWC data, one operand, not streaming. The same
// values, counters and warnings as fetch_inputs() followed by
// make_conv_image(), without the per-processor planes in between: a data
// memory word holds one pixel of the processors sharing an instance, so each
// word is read once and its bytes go to their channels directly, and the
// processors of an instance share one scan of the words they read.
#pragma once

#include <cstdint>
#include <vector>

#include "model/engine/conv_layout.h"

namespace ai8x {

// Whether fetch_conv_image() handles `cfg` (else: fetch_inputs()).
bool reads_image_directly(const LayerConfig& cfg, const InputWordSource* source);

// The image of `cfg`'s mask-enabled processors, padded and spread by
// `spread` (LayerWeights channel order: processor * passes + pass). Books
// the reads and warnings as fetch_inputs() does; `word_reads` gets its count.
ConvImage fetch_conv_image(const AcceleratorState& state, const LayerConfig& cfg, uint32_t spread,
                           std::vector<EngineWarning>& warnings, uint64_t& word_reads);

}  // namespace ai8x
