#include "app/inference_timer.h"

#include "model/accel_state.h"
#include "model/registers/register_fields.h"

namespace ai8x {

InferenceTimer::InferenceTimer(const AcceleratorState& state)
    : state_(state), cnn_en_(register_fields(state.cfg).REG_CTL.CNN_EN) {}

bool InferenceTimer::any_enabled() const {
    for (const QuadrantRegisters& q : state_.quadrant)
        if (cnn_en_.is_set(q.ctl)) return true;
    return false;
}

void InferenceTimer::on_transaction(const BusEvent& ev) {
    if (ev.command != tlm::TLM_WRITE_COMMAND) return;
    // The enable bit going from clear to set on any quadrant starts an inference;
    // firmware clears it between runs, so each run is seen.
    const bool enabled = any_enabled();
    if (enabled && !was_enabled_) start_ = std::chrono::steady_clock::now();
    was_enabled_ = enabled;
}

void InferenceTimer::on_irq(bool level) {
    if (!level || !start_) return;
    last_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - *start_).count();
    start_.reset();
}

}  // namespace ai8x
