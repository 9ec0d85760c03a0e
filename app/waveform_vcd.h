// `run --vcd FILE`: the recorded activity as logic-analyser signals, in
// scopes named after the module tree (docs/debugging.md lists them):
//   cnn        busy, layer, passes, irq
//   cnn.qN     busy, layer                 (one scope per quadrant)
//   cnn.fifo   level0..levelN-1, stall
//   cnn.stream layer, lL_rows              (one per streaming layer L)
//   cpu        sleep
#pragma once

#include <string>
#include <vector>

#include "app/waveform_recorder.h"

namespace ai8x {

struct WaveformLayout {
    std::vector<std::string> quadrant_scopes;  // hierarchical names, e.g. "cnn.q0"
    unsigned fifo_count = 0;
    std::string fifo_scope = "cnn.fifo", stream_scope = "cnn.stream", cnn_scope = "cnn", cpu_scope = "cpu";
};

// Writes the VCD atomically (temp + rename); throws std::runtime_error naming the path.
void write_waveform_vcd(const WaveformRecorder& recording, const WaveformLayout& layout, const std::string& path);

}  // namespace ai8x
