#include "model/timing/timing_model.h"

#include <sstream>

#include "model/registers/register_fields.h"

namespace ai8x {

namespace {

constexpr uint32_t kPassthroughMaskUnit = 8;  // passthrough MCNT counts output passes in steps of 8

// States spent at one column position of the frame, for one visit.
struct Position {
    bool padding = false;  // padding row or column: reads zero, no memory access
    bool output = false;   // the kernel window is full here: processors produce output
};

}  // namespace

LayerCycles& LayerCycles::operator+=(const LayerCycles& o) {
    read += o.read;
    pool += o.pool;
    pad += o.pad;
    tram += o.tram;
    write += o.write;
    setup += o.setup;
    pipeline += o.pipeline;
    return *this;
}

LayerCycles LayerCycles::scaled(int64_t n) const {
    return LayerCycles{read * n, pool * n, pad * n, tram * n, write * n, setup * n, pipeline * n};
}

uint32_t layer_timeslots(const AcceleratorState& state, const LayerConfig& layer) {
    if (layer.lead_quadrant < 0) return 1;
    const RegField tscnt_max = register_fields(state.cfg).LREG_ONED.TSCNT_MAX;
    return tscnt_max.get(state.quadrant[layer.lead_quadrant].lreg[LREG_ONED][layer.layer]) + 1;
}

LayerWalk layer_walk(const LayerConfig& c, const AccelTiming& timing, uint32_t timeslots) {
    LayerWalk w;
    w.rows = c.pooled_rows;
    w.cols = c.pooled_cols;
    if (c.conv_transpose) {
        // The sequencer walks the upsampled frame that RCNT/CCNT describe;
        // the inserted zeros cost the same states as data.
        w.rows = c.programmed_rows - 2 * c.pad_rows;
        w.cols = c.programmed_cols - 2 * c.pad_cols;
    }
    w.pad_rows = c.pad_rows;
    w.pad_cols = c.pad_cols;
    w.kernel_rows = c.kernel_rows;
    w.kernel_cols = c.kernel_cols;
    w.pool_reads = c.pool_enabled ? int64_t(c.pool_rows) * c.pool_cols : 1;
    w.passes = c.passes;
    w.operands = c.operands;
    // Pooling after the element-wise operation is only selectable with both
    // pooling and several operands; otherwise each operand is pooled first.
    w.pool_first = !(c.eltwise && w.pool_reads > 1 && !c.pool_before_eltwise);
    w.passthrough = !c.convolution;
    w.flatten = c.flatten;
    w.timeslots = timeslots;

    if (w.passthrough) {
        // A pooled passthrough that writes several output passes re-reads the
        // input: the chip needs 2n-1 read passes for n input passes.
        const uint32_t out_passes = c.mask_end / kPassthroughMaskUnit + 1;
        if (timing.passthrough_pool_double_pass && out_passes > 1 && w.pool_reads > 1) w.passes = 2 * w.passes - 1;
        w.output_channels = 0;
    } else {
        const int64_t kernels = int64_t(c.mask_end - c.mask_start) / c.weight_bits + 1;
        w.output_channels = kernels / w.passes;
    }
    // The kernel memory start address, in words, back in units of 3x3 kernels
    // (a 1-D layer may start inside a word).
    const int64_t kernel_positions = int64_t(c.kernel_rows) * c.kernel_cols;
    w.kernel_offset = ((c.mask_start / 8) * kernel_positions + c.oned_start_byte) / 9;
    return w;
}

LayerCycles TimingModel::layer_breakdown(const LayerWalk& w) const {
    const AccelTiming& t = timing_;
    LayerCycles total;

    // One visit of a position reads every pass and operand: either the
    // operands are pooled first (one TRAM write per operand) or combined first
    // (one TRAM write per pass). Padding reads no memory, so no pooling window.
    const int64_t tram_words = w.pool_first ? w.passes * w.operands : w.passes;
    auto visit = [&](const Position& p) {
        LayerCycles c;
        if (p.padding) {
            c.pad = tram_words * t.read_state;
        } else {
            c.read = w.passes * w.operands * t.read_state;
            c.pool = w.passes * w.operands * (w.pool_reads - 1) * t.read_state;
        }
        c.tram = tram_words * t.tram_write;
        return c;
    };

    if (w.passthrough) {
        // No padding and no kernel window: every pixel is read, then written
        // once per pass and time slot.
        LayerCycles pixel = visit(Position{});
        pixel.write = w.passes * w.timeslots * t.write_state;
        pixel.pipeline = w.passes * int64_t(t.output_extra);  // one output event per pixel and pass
        return pixel.scaled(w.rows * w.cols);
    }

    // When operands are combined before pooling, the sequencer steps through
    // each data column once per pass; padding columns are stepped once.
    const int64_t data_visits = w.pool_first ? 1 : w.passes;
    const int64_t frame_rows = w.rows + 2 * w.pad_rows;
    const int64_t frame_cols = w.cols + 2 * w.pad_cols;
    const int64_t out_cols = w.output_cols();
    // A single output channel in a single pass needs one more write per channel.
    const int64_t single_channel = (w.output_channels == 1 && w.passes == 1) ? 1 : 0;

    // A row's cycles depend only on whether it is a padding row and whether
    // it outputs: each of the four kinds of row is walked once and counted
    // as often as it occurs (integer sums, so the same total as row by row).
    auto row_cycles = [&](bool pad_row, bool output_row) {
        LayerCycles row;
        for (int64_t col = 0; col < frame_cols; ++col) {
            const bool pad_col = col < w.pad_cols || col >= w.pad_cols + w.cols;
            Position p{pad_row || pad_col, output_row && col >= w.kernel_cols - 1};
            LayerCycles c = visit(p);
            // Until the kernel window is full the column ends in a write state.
            if (!p.output) c.write += t.write_state;
            row += c.scaled(pad_col ? 1 : data_visits);
        }
        if (output_row) {
            LayerCycles out;
            out.write = (w.passes * out_cols * w.output_channels + w.output_channels * single_channel) * t.write_state;
            out.pipeline = w.passes * out_cols * int64_t(t.output_extra);  // one output event per pixel and pass
            row += out;
        }
        return row;
    };
    int64_t rows_of_kind[2][2] = {{0, 0}, {0, 0}};  // [padding row][output row]
    for (int64_t r = 0; r < frame_rows; ++r)
        ++rows_of_kind[r < w.pad_rows || r >= w.pad_rows + w.rows][r >= w.kernel_rows - 1];
    for (int pad_row = 0; pad_row < 2; ++pad_row)
        for (int output_row = 0; output_row < 2; ++output_row)
            if (rows_of_kind[pad_row][output_row])
                total += row_cycles(pad_row, output_row).scaled(rows_of_kind[pad_row][output_row]);

    if (w.flatten) total.setup += t.flatten_setup;
    if (t.kernel_offset_preread && !w.pool_first && (w.passes > 1 || w.operands > 1)) {
        // Before an op-first multi-pass layer the sequencer pre-reads, per
        // kernel of offset, every padding position that feeds an output.
        const int64_t positions = (w.rows + 2 * w.pad_rows - w.kernel_cols + 1) * w.pad_cols +
                                  (w.cols + 2 * w.pad_cols - w.kernel_rows + 1) * w.pad_rows - w.pad_rows * w.pad_cols;
        total.setup += positions * w.kernel_offset;
    }
    return total;
}

LayerCycles TimingModel::layer_breakdown(const LayerConfig& layer, uint32_t timeslots) const {
    return layer_breakdown(layer_walk(layer, timing_, timeslots));
}

uint64_t TimingModel::layer_cycles(const LayerConfig& layer, uint32_t timeslots) const {
    const int64_t cycles = layer_breakdown(layer, timeslots).total();
    return cycles > 0 ? static_cast<uint64_t>(cycles) : 0;
}

std::string describe(const LayerCycles& c) {
    std::ostringstream os;
    os << "read " << c.read << " pool " << c.pool << " pad " << c.pad << " tram " << c.tram << " write " << c.write
       << " setup " << c.setup;
    if (c.pipeline != 0) os << " pipeline " << c.pipeline;
    return os.str();
}

}  // namespace ai8x
