// The inputs of a CPU core as ports, for the board to bind: its interrupt
// lines (an NVIC input each: "nvic.irq79") and the clock whose start releases
// it. The core models take these as calls (set_irq, release); this module is
// where the wiring becomes visible (`ai8xsim info`) and where each change
// reaches the core at once (tlm/wire.h says why).
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include <systemc>

#include "tlm/wire.h"

namespace ai8x {

class CoreInputs : public sc_core::sc_module {
public:
    using SetIrq = std::function<void(unsigned line, bool level)>;

    // One input per line in `lines` (named irq<N>), delivered to `set_irq`.
    CoreInputs(sc_core::sc_module_name name, const std::vector<unsigned>& lines, SetIrq set_irq);

    WireIn<bool>& irq(unsigned line);

    // The core's clock: its rising edge calls on_clock_start (a core held in
    // reset until its clock runs starts then).
    WireIn<bool> clock;
    std::function<void()> on_clock_start;

    const char* kind() const override { return "ai8x_core_inputs"; }

private:
    SetIrq set_irq_;
    std::vector<unsigned> lines_;
    std::vector<std::unique_ptr<WireIn<bool>>> inputs_;
};

}  // namespace ai8x
