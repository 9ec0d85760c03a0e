// Timing model on hand-made layers. Every expected number is counted by hand
// from the sequencer walk described in docs/timing-model.md (state costs of 1
// cycle), not taken from the model's output.
#include <catch2/catch.hpp>

#include "model/accel_state.h"
#include "model/engine/layer_config.h"
#include "model/timing/timing_model.h"
#include "tlm/device_config.h"

using namespace ai8x;

namespace {

AccelTiming unit_costs() {
    AccelTiming t;
    t.read_state = t.tram_write = t.write_state = t.flatten_setup = t.startup = 1;
    t.kernel_offset_preread = true;
    t.passthrough_pool_double_pass = true;
    return t;
}

// 4x4 input, 3x3 kernel, padding 1, one pass, two output channels.
LayerWalk small_conv() {
    LayerWalk w;
    w.rows = w.cols = 4;
    w.pad_rows = w.pad_cols = 1;
    w.kernel_rows = w.kernel_cols = 3;
    w.output_channels = 2;
    return w;
}

}  // namespace

TEST_CASE("timing: 3x3 convolution with padding, counted row by row", "[timing]") {
    // Frame 6x6. A position costs read + TRAM write = 2; a column that produces
    // no output adds a write state.
    //   row 0 (padding, kernel not full): 6 x 3            = 18
    //   row 1 (data, kernel not full):    6 x 3            = 18
    //   rows 2..5: columns 0,1: 3 each, columns 2..5: 2 each = 14, plus
    //              4 output columns x 2 channels = 8 writes -> 22 each = 88
    const LayerCycles c = TimingModel(unit_costs()).layer_breakdown(small_conv());
    CHECK(c.total() == 124);
    CHECK(c.read == 16);  // 16 data positions
    CHECK(c.pad == 20);   // 36 - 16 padding positions
    CHECK(c.tram == 36);
    CHECK(c.write == 20 + 32);  // write states: 12 in rows 0,1 + 8 in rows 2..5; 4 x 8 outputs
    CHECK(c.pool == 0);
    CHECK(c.setup == 0);
}

TEST_CASE("timing: pooling reads every word of the window", "[timing]") {
    LayerWalk w = small_conv();
    w.pool_reads = 4;  // 2x2 window: three more reads at each of the 16 data positions
    const LayerCycles c = TimingModel(unit_costs()).layer_breakdown(w);
    CHECK(c.pool == 48);
    CHECK(c.total() == 124 + 48);
}

TEST_CASE("timing: passes multiply reads, TRAM writes and output writes", "[timing]") {
    LayerWalk w = small_conv();
    w.passes = 2;
    // Positions cost 2 reads + 2 TRAM writes = 4: 36 x 4 = 144; write states
    // unchanged: rows 0,1 -> 12, rows 2..5 columns 0,1 -> 8; outputs
    // 2 passes x 4 columns x 2 channels = 16 per output row -> 64.
    CHECK(TimingModel(unit_costs()).layer_breakdown(w).total() == 144 + 12 + 8 + 64);
}

TEST_CASE("timing: a single output channel in a single pass writes once more per row", "[timing]") {
    LayerWalk w = small_conv();
    w.output_channels = 1;
    // As the first case, but outputs are 4 + 1 per output row instead of 8.
    CHECK(TimingModel(unit_costs()).layer_breakdown(w).total() == 124 - 4 * 8 + 4 * 5);
}

TEST_CASE("timing: passthrough reads and writes each pixel", "[timing]") {
    LayerWalk w;
    w.rows = w.cols = 4;
    w.passthrough = true;
    w.passes = 2;
    w.timeslots = 3;
    // Per pixel: 2 reads + 2 TRAM writes + 2 passes x 3 slots = 10; 16 pixels.
    CHECK(TimingModel(unit_costs()).layer_breakdown(w).total() == 160);
}

TEST_CASE("timing: element-wise combined before pooling visits data columns once per pass", "[timing]") {
    LayerWalk w;
    w.rows = w.cols = 2;
    w.kernel_rows = w.kernel_cols = 1;
    w.passes = 2;
    w.operands = 2;
    w.pool_reads = 4;
    w.pool_first = false;
    w.output_channels = 1;
    // No padding, 1x1 kernel: every position outputs. A visit reads
    // 2 passes x 2 operands x 4 window words = 16 and writes TRAM once per
    // pass = 2; each of the 4 positions is visited twice (once per pass):
    // 4 x 2 x 18 = 144. Output: 2 passes x 2 columns x 1 channel per row = 4,
    // two rows = 8. No padding, so no pre-read.
    CHECK(TimingModel(unit_costs()).layer_breakdown(w).total() == 144 + 8);
}

TEST_CASE("timing: startup cycles and flatten set-up come from the device description", "[timing]") {
    AccelTiming t = unit_costs();
    t.startup = 7;
    t.flatten_setup = 5;
    LayerWalk w = small_conv();
    w.flatten = true;
    CHECK(TimingModel(t).startup_cycles() == 7);
    CHECK(TimingModel(t).layer_breakdown(w).setup == 5);
}

TEST_CASE("timing: cycles follow the decoded registers", "[timing]") {
    const DeviceConfig cfg = load_device_config(default_device_config_path());
    AcceleratorState st(cfg);
    auto set = [&](unsigned kind, uint32_t v) { st.quadrant[0].lreg[kind][0] = v; };
    // The small_conv layer as a generator would program it: 4x4 + padding 1
    // (count field = 4 + 2 - 1), processor 0 with its mask enabled, 8-bit
    // weights, two kernels in kernel memory (mask end - start = 1 x 8).
    set(LREG_RCNT, 1u << 16 | 5);
    set(LREG_CCNT, 1u << 16 | 5);
    set(LREG_ENA, 0x00010001);
    set(LREG_MCNT, 8);
    std::vector<EngineWarning> warnings;
    auto layer = decode_layer(st, 0, {0}, warnings);
    REQUIRE(layer);
    const TimingModel model(cfg.timing);
    CHECK(model.layer_cycles(*layer, layer_timeslots(st, *layer)) == 124);

    // Misprogrammed: padding 2 instead of 1 on the same 4x4 data makes a larger
    // frame (8x8) to walk, as on silicon.
    set(LREG_RCNT, 2u << 16 | 7);
    set(LREG_CCNT, 2u << 16 | 7);
    auto padded = decode_layer(st, 0, {0}, warnings);
    REQUIRE(padded);
    CHECK(model.layer_cycles(*padded, layer_timeslots(st, *padded)) > 124);
}

TEST_CASE("timing: op-first multi-pass layers pre-read per kernel offset", "[timing]") {
    // 2x2 data, padding 1, 3x3 kernel, 2 passes, 2 operands combined before a
    // 2x2 pool. Padding positions in the frame that feed an output: one padding
    // column beside each of the 2 output rows, one padding row above each of
    // the 2 output columns, minus the shared corner = 3 per kernel of offset.
    LayerWalk w = small_conv();
    w.rows = w.cols = 2;
    w.passes = 2;
    w.operands = 2;
    w.pool_reads = 4;
    w.pool_first = false;
    w.kernel_offset = 2;
    const TimingModel model(unit_costs());
    CHECK(model.layer_breakdown(w).setup == 3 * 2);

    AccelTiming no_preread = unit_costs();
    no_preread.kernel_offset_preread = false;
    CHECK(TimingModel(no_preread).layer_breakdown(w).setup == 0);
    w.pool_first = true;
    CHECK(model.layer_breakdown(w).setup == 0);
}
