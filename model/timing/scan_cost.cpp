#include "model/timing/scan_cost.h"

#include <algorithm>

namespace ai8x {

ScanCost::ScanCost(const LayerWalk& walk, const AccelTiming& timing) : w_(walk), t_(timing) {
    // The per-layer extras are whatever the whole-layer walk charges as setup.
    setup_ = TimingModel(timing).layer_breakdown(walk).setup;
    const int64_t cols = std::max<int64_t>(0, frame_cols());
    for (int kind = 0; kind < 4; ++kind) {
        costs_[kind].resize(static_cast<std::size_t>(cols));
        for (int64_t col = 0; col < cols; ++col) costs_[kind][static_cast<std::size_t>(col)] = compute(kind, col);
    }
}

int ScanCost::row_kind(int64_t row) const {
    const bool pad_row = row < w_.pad_rows || row >= w_.pad_rows + w_.rows;
    const bool output_row = row >= w_.kernel_rows - 1;
    return (pad_row ? 2 : 0) + (output_row ? 1 : 0);
}

int64_t ScanCost::position(int64_t row, int64_t col) const {
    const std::vector<int64_t>& costs = costs_[row_kind(row)];
    if (col >= 0 && static_cast<uint64_t>(col) < costs.size()) return costs[static_cast<std::size_t>(col)];
    return compute(row_kind(row), col);
}

int64_t ScanCost::frame_rows() const { return w_.passthrough ? w_.rows : w_.rows + 2 * w_.pad_rows; }
int64_t ScanCost::frame_cols() const { return w_.passthrough ? w_.cols : w_.cols + 2 * w_.pad_cols; }

int64_t ScanCost::compute(int row_kind, int64_t col) const {
    const int64_t tram_words = w_.pool_first ? w_.passes * w_.operands : w_.passes;
    if (w_.passthrough)
        return w_.passes * w_.operands * w_.pool_reads * t_.read_state + tram_words * t_.tram_write +
               w_.passes * w_.timeslots * t_.write_state + w_.passes * int64_t(t_.output_extra);

    const bool pad_row = row_kind & 2;
    const bool pad_col = col < w_.pad_cols || col >= w_.pad_cols + w_.cols;
    const bool padding = pad_row || pad_col;
    const bool output_row = row_kind & 1;
    const bool output = output_row && col >= w_.kernel_cols - 1;

    int64_t visit = padding ? tram_words * t_.read_state : w_.passes * w_.operands * w_.pool_reads * t_.read_state;
    visit += tram_words * t_.tram_write;
    if (!output) visit += t_.write_state;
    // Op-first layers step each data column once per pass.
    int64_t cycles = visit * ((pad_col || w_.pool_first) ? 1 : w_.passes);
    if (output) cycles += output_write_share(col);
    return cycles;
}

// The hardware writes each output pixel's channels as it computes them (not
// the whole row at its end): the row's write states and pipeline events are
// spread evenly over its output positions, so their sum is the row's total.
// A FIFO-fed layer therefore takes input words between pixels; the vendor's
// camera paces need it (docs/rtl-flow.md, "The camera").
int64_t ScanCost::output_write_share(int64_t col) const {
    const int64_t single_channel = (w_.output_channels == 1 && w_.passes == 1) ? 1 : 0;
    const int64_t row_total =
        (w_.passes * w_.output_cols() * w_.output_channels + w_.output_channels * single_channel) * t_.write_state +
        w_.passes * w_.output_cols() * int64_t(t_.output_extra);  // pipeline, per output event
    const int64_t positions = frame_cols() - (w_.kernel_cols - 1), i = col - (w_.kernel_cols - 1);
    return row_total * (i + 1) / positions - row_total * i / positions;
}

}  // namespace ai8x
