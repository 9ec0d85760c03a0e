// `run --timeline FILE`: the run on one time axis in the Chrome trace-event
// JSON format (Perfetto and chrome://tracing open it): the firmware's phases
// and WFI sleeps (process "cpu"), the inference, its layers per quadrant,
// the streaming layers, FIFO stalls and CNN interrupts (process "cnn").
// Timestamps and durations are microseconds of simulated time.
#pragma once

#include <string>
#include <vector>

#include "app/firmware_phases.h"
#include "app/waveform_recorder.h"

namespace ai8x {

// `quadrant_names`: hierarchical names ("cnn.q0", ...) naming the quadrant threads.
// Writes atomically (temp + rename); throws std::runtime_error naming the path.
void write_timeline(const WaveformRecorder& recording, const std::vector<FirmwarePhases::Span>& phases,
                    const std::vector<std::string>& quadrant_names, const std::string& path);

}  // namespace ai8x
