// Wall-clock time the simulator spends on one CNN inference: from the bus
// write that enables the accelerator to its completion interrupt. Measured in
// the run loop (as a bus observer plus an IRQ hook) so the model stays free of
// host-time code.
#pragma once

#include <chrono>
#include <optional>

#include "tlm/bus_observer.h"
#include "tlm/register_description.h"

namespace ai8x {

struct AcceleratorState;

class InferenceTimer : public BusObserver {
public:
    explicit InferenceTimer(const AcceleratorState& state);
    void on_transaction(const BusEvent& ev) override;
    // Call from the accelerator's interrupt line.
    void on_irq(bool level);
    // Seconds of the last completed inference; nothing if none completed.
    std::optional<double> last_seconds() const { return last_; }

private:
    bool any_enabled() const;
    const AcceleratorState& state_;
    RegField cnn_en_;  // REG_CTL.CNN_EN, resolved once: every bus write looks at it
    bool was_enabled_ = false;
    std::optional<std::chrono::steady_clock::time_point> start_;
    std::optional<double> last_;
};

}  // namespace ai8x
