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
    LayerConfig cfg;               // decode_layer() of this layer

    // Raw register fields (lead quadrant).
    uint32_t start = 0;            // LREG_STREAM1 [13:0]
    bool fifo_go = false;          // LREG_STREAM1 [25]
    uint32_t invol = 0;            // LREG_STREAM2 [3:0]
    uint32_t delta1 = 0;           // LREG_STREAM2 [8:4]
    uint32_t delta2 = 0;           // LREG_STREAM2 [27:16]
    uint32_t fmax = 0;             // LREG_FMAX [16:0]: input ring size in words
    uint32_t tptr_sad = 0, tptr_max = 0;  // LREG_TPTR [27:16], [11:0]

    // Scan over the pooled, padded input grid (§1).
    uint32_t scan_rows = 0, scan_cols = 0;   // Hc, Wc
    uint32_t out_rows = 0, out_cols = 0;     // output pixels (stride-1 kernel)
    uint32_t ring_offset = 0;      // word offset of the input ring inside each instance (RPTR low bits)

    uint64_t positions() const { return uint64_t{scan_rows} * scan_cols; }
    int layer() const { return cfg.layer; }
};

struct StreamPlan {
    const DeviceConfig* device = nullptr;
    int master = -1;
    std::vector<int> quadrants;    // enabled quadrants
    bool fifo_mode = false;        // REG_CTL bit 15
    bool streaming = false;        // REG_CTL bit 14
    uint32_t fifo_enables = 0;     // FIFO_CTL [15:12]
    uint32_t frame_words = 0;      // REG_IFRM: words per FIFO in one frame
    bool chw = false;              // layer 0 reads CHW: four pixels per FIFO word
    uint32_t layer0_start = 0;     // LREG_STREAM1 of layer 0 (non-streaming FIFO mode start threshold)
    std::vector<StreamLayer> chain;  // layers 0..S-1
    std::vector<EngineWarning> warnings;  // static checks (§6.3)

    uint32_t pixels_per_word() const { return chw ? 4 : 1; }
    int last_layer = -1;           // REG_LCNT_MAX of the master quadrant
    int first_layer = 0;
};

// Decodes the plan from the registers. Never throws; problems become warnings.
StreamPlan make_stream_plan(const AcceleratorState& state);

// Register field helpers shared with the scheduler's messages.
namespace stream_fields {
constexpr uint32_t kCtlStreaming = 1u << 14;
constexpr uint32_t kCtlFifo = 1u << 15;
constexpr uint32_t kCtlStreamFifo = 1u << 19;
constexpr uint32_t kStartMask = 0x3fff;
constexpr uint32_t kFifoGo = 1u << 25;
constexpr uint32_t kInvolMask = 0xf;
constexpr unsigned kDelta1Shift = 4;
constexpr uint32_t kDelta1Mask = 0x1f;
constexpr unsigned kDelta2Shift = 16;
constexpr uint32_t kDelta2Mask = 0xfff;
constexpr uint32_t kFmaxMask = 0x1ffff;
constexpr uint32_t kIfrmMask = 0xfffff;
constexpr uint32_t kTptrMask = 0xfff;
constexpr unsigned kTptrSadShift = 16;
constexpr unsigned kFifoEnableShift = 12;
constexpr uint32_t kFifoEnableMask = 0xf;
}  // namespace stream_fields

}  // namespace ai8x
