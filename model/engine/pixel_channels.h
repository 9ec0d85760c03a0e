// The byte move at the heart of the HWC input fetch (image_fetch.h): a pixel
// of four processors sharing a data memory instance is `passes` consecutive
// words, byte k of word j the value of lane k's channel in pass j; the image
// wants them channel by channel (lane k's pass j at k * passes + j). Plain
// moves, so exact; on x86-64 the usual pass counts (1, 2, 4) go through SSE2
// unpacks (part of every x86-64 host), which the tests hold to the plain loop.
#pragma once

#include <cstddef>
#include <cstdint>

#include "model/engine/weight_quads.h"

namespace ai8x {

// Pixel px's 4 * passes channel values from words src[px * passes ..
// px * passes + passes) to row + px * col_pitch, for px < pixels; nothing
// else of the row is written.
void pixel_channels(const uint32_t* src, std::size_t pixels, uint32_t passes, int16_t* row, std::size_t col_pitch,
                    ByteMoves how = ByteMoves::best);
void pixel_channels(const uint32_t* src, std::size_t pixels, uint32_t passes, int8_t* row, std::size_t col_pitch,
                    ByteMoves how = ByteMoves::best);

}  // namespace ai8x
