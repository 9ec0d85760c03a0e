// The two byte moves that put 8-bit weights into the kernel's quad layout
// (conv_layout.h: per step of a block, the kBlockOutputs outputs' four
// values side by side) a block at a time instead of a weight at a time:
// the block's outputs' kernel bytes turned into columns (one column holds a
// byte position of all kBlockOutputs outputs), then four columns
// interleaved into one step. Plain byte moves, so exact; on x86-64 done with
// SSE2 (part of every x86-64 host), elsewhere with the plain loops, which
// the tests hold the SSE2 path to.
#pragma once

#include <cstddef>
#include <cstdint>

#include "model/engine/dot_kernel.h"

namespace ai8x {

// Which implementation: the best this host has, or the plain loops.
enum class ByteMoves { best, plain };

// Bytes a column holds: one per output of a block.
constexpr std::size_t kColumnBytes = kBlockOutputs;

// The columns of `length` byte positions of kBlockOutputs rows, row l at
// rows + l * row_stride: columns[k * kColumnBytes + l] = rows[l * row_stride + k].
// Reads whole groups of 4, 8 or 16 positions: up to 15 bytes past position
// length - 1 of every row may be read (the caller's allocation must hold
// them), and `columns` must hold the positions rounded up to a multiple of 16.
void bytes_to_columns(const uint8_t* rows, std::size_t row_stride, std::size_t length, uint8_t* columns,
                      ByteMoves how = ByteMoves::best);

// The steps of one block of the quad layout: step s takes value v from the
// column at columns + column_offsets[4 * s + v] (byte offsets; a column of
// zeros where no weight goes): out[64 * s + 4 * l + v] = that column's byte l.
void interleave_quads(const uint8_t* columns, const uint32_t* column_offsets, std::size_t steps, int8_t* out,
                      ByteMoves how = ByteMoves::best);

// The same for the kernel's int16 pair layout (8-bit weights beside inputs
// that are not all bytes): step s takes value v from the column at
// columns + column_offsets[2 * s + v]: out[32 * s + 2 * l + v] = that
// column's byte l as a signed value.
void interleave_pairs(const uint8_t* columns, const uint32_t* column_offsets, std::size_t steps, int16_t* out,
                      ByteMoves how = ByteMoves::best);

}  // namespace ai8x
