#include "model/timing/pipeline.h"

#include <cmath>

#include "model/registers/register_fields.h"

namespace ai8x {

bool pipeline_enabled(const AcceleratorState& state, int master_quadrant) {
    if (!state.cfg.timing.pipeline.present) return false;
    if (master_quadrant < 0 || master_quadrant >= int(state.quadrant.size())) return false;
    const RegField dis = register_fields(state.cfg).REG_CTL.PIPELINE_DIS;
    if (dis.width == 0) return false;  // no PIPELINE_DIS field: nothing to enable
    return !dis.is_set(state.quadrant[size_t(master_quadrant)].ctl);
}

uint32_t pipeline_output_cycles(const AccelTiming::Pipeline& pipeline, double cnn_hz) {
    if (!pipeline.present || cnn_hz <= 0) return 0;
    // Whole picoseconds per clock keep the division exact (20 ns at 200 MHz is
    // 4 clocks, not 4.0000001 rounded up to 5).
    const uint64_t clock_ps = static_cast<uint64_t>(std::llround(1e12 / cnn_hz));
    const uint64_t sync_ps = uint64_t(pipeline.output_sync_ns) * 1000;
    const uint64_t sync_cycles = clock_ps == 0 ? 0 : (sync_ps + clock_ps - 1) / clock_ps;
    return pipeline.output_fill_cycles + static_cast<uint32_t>(sync_cycles);
}

AccelTiming inference_timing(const AccelTiming& device, const AcceleratorState& state, int master_quadrant,
                             double cnn_hz) {
    AccelTiming t = device;
    t.output_extra = pipeline_enabled(state, master_quadrant) ? pipeline_output_cycles(device.pipeline, cnn_hz) : 0;
    return t;
}

}  // namespace ai8x
