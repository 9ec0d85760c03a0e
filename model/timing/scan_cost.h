// Cycles of single scan positions, for the streaming scheduler: interleaved
// layers advance one position at a time, so the chain's timeline needs the
// cost of each position rather than of whole layers. The charges are those of
// TimingModel::layer_breakdown (docs/timing-model.md), split by position: the
// sum over a layer's positions plus setup() equals the layer's total.
#pragma once

#include <cstdint>
#include <vector>

#include "model/timing/timing_model.h"

namespace ai8x {

class ScanCost {
public:
    ScanCost(const LayerWalk& walk, const AccelTiming& timing);

    // Frame the sequencer walks: pooled input plus padding (passthrough: no padding).
    int64_t frame_rows() const;
    int64_t frame_cols() const;

    // Cycles of position (row, col) of that frame, including its share of the
    // output row's writes when it completes an output pixel.
    int64_t position(int64_t row, int64_t col) const;

    // Write cycles an output position of an output row carries (its even share).
    int64_t output_write_share(int64_t col) const;

    // Per-layer extras (flatten, kernel pre-read), charged once before the first position.
    int64_t setup() const { return setup_; }

private:
    // A row's kind (padding row or not, completes output pixels or not) decides its costs.
    int row_kind(int64_t row) const;
    int64_t compute(int row_kind, int64_t col) const;

    LayerWalk w_;
    AccelTiming t_;
    int64_t setup_ = 0;
    // Every column's cost per row kind, found once: the scheduler asks for each position.
    std::vector<int64_t> costs_[4];
};

}  // namespace ai8x
