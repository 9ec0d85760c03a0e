// The streaming chain as the registers describe it (docs/streaming.md §2, §6.3):
// which layers stream, their stream start / delta / rollover fields, their
// scan geometry and where their input rings live. Decoded once per inference
// from AcceleratorState; nothing here looks at the network the generator
// intended, so misprogrammed registers show up as a different plan (and as
// warnings), exactly as they would change the hardware's behaviour.
#pragma once

#include <cstdint>
#include <vector>

#include "model/accel_state.h"
#include "model/engine/layer_config.h"

namespace ai8x {

struct StreamLayer {
    LayerConfig cfg;  // decode_layer() of this layer

    // Raw register fields (lead quadrant).
    uint32_t start = 0;                   // LREG_STREAM1.STREAM_START
    bool fifo_go = false;                 // LREG_STREAM1.FIFO_GO
    uint32_t invol = 0;                   // LREG_STREAM2.INVOL
    uint32_t delta1 = 0;                  // LREG_STREAM2.DELTA1
    uint32_t delta2 = 0;                  // LREG_STREAM2.DELTA2
    uint32_t fmax = 0;                    // LREG_FMAX.FBUF_MAX: input ring size in words
    uint32_t tptr_sad = 0, tptr_max = 0;  // LREG_TPTR.TPTR_SAD, TPTR_MAX

    // Scan over the pooled, padded input grid (§1).
    uint32_t scan_rows = 0, scan_cols = 0;  // Hc, Wc
    uint32_t out_rows = 0, out_cols = 0;    // output pixels (stride-1 kernel)
    uint32_t ring_offset = 0;               // word offset of the input ring inside each instance (RPTR low bits)

    uint64_t positions() const { return uint64_t{scan_rows} * scan_cols; }
    int layer() const { return cfg.layer; }
};

struct StreamPlan {
    const DeviceConfig* device = nullptr;
    int master = -1;
    std::vector<int> quadrants;           // enabled quadrants
    bool fifo_mode = false;               // master REG_CTL.FIFO_EN
    bool streaming = false;               // master REG_CTL.STREAM_EN
    uint32_t fifo_enables = 0;            // FIFO_CTL.FIFO_ENA
    uint32_t frame_words = 0;             // REG_IFRM: words per FIFO in one frame
    bool chw = false;                     // layer 0 reads CHW: four pixels per FIFO word
    uint32_t layer0_start = 0;            // LREG_STREAM1 of layer 0 (non-streaming FIFO mode start threshold)
    bool release_on_window = false;       // DeviceConfig::stream_release_on_window (docs/streaming.md §12)
    std::vector<StreamLayer> chain;       // layers 0..S-1
    std::vector<EngineWarning> warnings;  // static checks (§6.3)

    uint32_t pixels_per_word() const { return chw ? 4 : 1; }
    int last_layer = -1;  // REG_LCNT_MAX of the master quadrant (model/sequencing.h)
    int first_layer = 0;
};

// Decodes the plan from the registers. Never throws; problems become warnings.
StreamPlan make_stream_plan(const AcceleratorState& state);

}  // namespace ai8x
