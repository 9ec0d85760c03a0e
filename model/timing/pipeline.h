// The MAX78002's pipeline in the timing model. With REG_CTL.PIPELINE_DIS clear
// the accelerator runs from the fast PLL clock and every output event (one
// output pixel of one pass) costs more than the state walk charges: a fixed
// number of cycles plus a fixed time rounded up to whole CNN clocks, so the
// same layer takes more cycles at 200 MHz than at 100 MHz and fewer with the
// pipeline disabled (docs/timing-model.md, "MAX78002", and the AN7664 figures
// the parameters come from). A device without `timing.pipeline` pays nothing.
#pragma once

#include <cstdint>

#include "model/accel_state.h"
#include "tlm/device_config.h"

namespace ai8x {

// Whether the pipeline runs: the device describes one and the master
// quadrant's REG_CTL does not disable it.
bool pipeline_enabled(const AcceleratorState& state, int master_quadrant);

// Extra CNN cycles per output event with the pipeline enabled at `cnn_hz`.
uint32_t pipeline_output_cycles(const AccelTiming::Pipeline& pipeline, double cnn_hz);

// The device's per-state costs with `output_extra` resolved for one inference.
AccelTiming inference_timing(const AccelTiming& device, const AcceleratorState& state, int master_quadrant,
                             double cnn_hz);

}  // namespace ai8x
