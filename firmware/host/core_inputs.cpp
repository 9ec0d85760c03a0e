#include "firmware/host/core_inputs.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ai8x {

CoreInputs::CoreInputs(sc_core::sc_module_name name, const std::vector<unsigned>& lines, SetIrq set_irq)
    : sc_module(name),
      clock("clock",
            [this](bool running) {
                if (running && on_clock_start) on_clock_start();
            }),
      set_irq_(std::move(set_irq)) {
    for (unsigned line : lines) {
        if (std::find(lines_.begin(), lines_.end(), line) != lines_.end()) continue;
        lines_.push_back(line);
        inputs_.push_back(std::make_unique<WireIn<bool>>(("irq" + std::to_string(line)).c_str(),
                                                         [this, line](bool level) { set_irq_(line, level); }));
    }
}

WireIn<bool>& CoreInputs::irq(unsigned line) {
    for (std::size_t i = 0; i < lines_.size(); ++i)
        if (lines_[i] == line) return *inputs_[i];
    throw std::logic_error(std::string(name()) + ": no input for interrupt " + std::to_string(line));
}

}  // namespace ai8x
