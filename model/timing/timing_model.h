// Cycle-approximate timing of the CNN accelerator: how many CNN clock cycles
// the layer sequencer spends on one layer, counted as it steps through the
// layer's input frame state by state.
//
// The sequencer walks the (pooled) input frame row by row, including the
// padding rows and columns. At every column position it reads the data word of
// each pass and operand (a padding position reads zero without touching
// memory, a pooled position reads every word of the pooling window), writes the
// word into TRAM, and then either spends a write state (no output yet: the
// kernel window is not full) or lets the processors produce output; a row that
// completes output rows then writes every output channel of every pass.
// Passthrough layers (no kernels) only read and write each pixel.
//
// Everything is derived from the decoded registers (LayerConfig), so a
// misprogrammed count, padding, pooling or mask register changes the cycles as
// it would on silicon. Per-state costs come from DeviceConfig::timing.
#pragma once

#include <cstdint>
#include <string>

#include "model/engine/layer_config.h"
#include "tlm/device_config.h"

namespace ai8x {

// Where the cycles of one layer go; the fields sum to the layer's cycles.
struct LayerCycles {
    int64_t read = 0;      // read states of data words (first word of each pooling window)
    int64_t pool = 0;      // further read states inside pooling windows
    int64_t pad = 0;       // read states at padding positions
    int64_t tram = 0;      // TRAM write states
    int64_t write = 0;     // write states and output-channel writes
    int64_t setup = 0;     // per-layer extras: flatten set-up, multi-pass kernel pre-read
    int64_t pipeline = 0;  // MAX78002 pipeline: AccelTiming::output_extra per output event

    int64_t total() const { return read + pool + pad + tram + write + setup + pipeline; }
    LayerCycles& operator+=(const LayerCycles& o);
    LayerCycles scaled(int64_t n) const;  // the same events repeated n times
};

// What the sequencer's walk depends on, taken from the registers of one layer.
struct LayerWalk {
    int64_t rows = 0, cols = 0;  // pooled input frame without padding
    int64_t pad_rows = 0, pad_cols = 0;
    int64_t kernel_rows = 1, kernel_cols = 1;
    int64_t pool_reads = 1;       // words read per pooled position
    int64_t passes = 1;           // input passes read per position
    int64_t operands = 1;         // element-wise operands per position
    bool pool_first = true;       // pool each operand before combining them
    bool passthrough = false;     // no kernels: read and write each pixel
    int64_t output_channels = 1;  // channels written per output pixel and pass
    int64_t timeslots = 1;        // passthrough: output words per pixel and pass
    int64_t kernel_offset = 0;    // first kernel of the layer, in 3x3 kernel units
    bool flatten = false;

    int64_t output_cols() const { return cols + 2 * pad_cols - kernel_cols + 1; }
};

// Output words per pixel and pass of a passthrough layer: the time-slot count
// field (LREG_ONED.TSCNT_MAX) + 1 of the layer's lead quadrant. LayerConfig does not
// carry it, so callers read it here from the registers.
uint32_t layer_timeslots(const AcceleratorState& state, const LayerConfig& layer);

// Reads the walk parameters from a decoded layer and its time-slot count.
LayerWalk layer_walk(const LayerConfig& layer, const AccelTiming& timing, uint32_t timeslots);

class TimingModel {
public:
    explicit TimingModel(const AccelTiming& timing) : timing_(timing) {}

    // Cycles of one layer, split by kind of state.
    LayerCycles layer_breakdown(const LayerWalk& walk) const;
    LayerCycles layer_breakdown(const LayerConfig& layer, uint32_t timeslots) const;

    uint64_t layer_cycles(const LayerConfig& layer, uint32_t timeslots) const;
    uint64_t startup_cycles() const { return timing_.startup; }

private:
    AccelTiming timing_;
};

// "read 120 pool 0 pad 44 tram 164 write 60 setup 0" for reports and logs
// (" pipeline N" appended when the pipeline added cycles).
std::string describe(const LayerCycles& c);

}  // namespace ai8x
