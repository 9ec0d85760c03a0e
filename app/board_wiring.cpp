// The board's wires (app/platform.h): the SoC's clock and power outputs to the
// accelerator, the RISC-V core's clock, and the peripherals' interrupts to the
// Cortex-M4's NVIC inputs.
#include <spdlog/spdlog.h>

#include "app/platform.h"
#include "firmware/host/elf_image.h"

namespace ai8x {

template <class T>
Wire<T>& Platform::link(WireOut<T>& writer, const std::string& name) {
    Wire<T>& wire = wires_.connect(writer, name.c_str());
    wiring_.push_back({name, writer.name(), {}, &wire});
    return wire;
}

template <class T>
void Platform::add_reader(Wire<T>& wire, WireIn<T>& reader) {
    reader.bind(wire);
    for (WireLink& l : wiring_)
        if (l.channel == &wire) l.readers.push_back(reader.name());
}

template <class T>
void Platform::link(WireOut<T>& writer, const std::string& name, WireIn<T>& reader) {
    add_reader(link(writer, name), reader);
}

void Platform::connect_soc() {
    periph_.attach(accel_.fast_fifo());
    attach_camera();
    Gcr& gcr = periph_.gcr();
    Gcfr& gcfr = periph_.gcfr();
    PowerControl& power = accel_.power();
    link(gcr.cnn_clock_hz, "cnn_clock_hz", accel_.cnn_clock);
    link(gcr.cnn_clock_running, "cnn_clock_running", power.cnn_clock_running);
    link(gcfr.power_enable, "cnn_power_enable", power.power_enable);
    link(gcfr.memory_enable, "cnn_memory_enable", power.memory_enable);
    link(gcfr.isolation, "cnn_isolation", power.isolation);
    link(gcfr.domain_reset, "cnn_domain_reset", power.domain_reset);
    link(gcr.riscv_clock_running, "riscv_clock_running", riscv_in_.clock);
    cnn_irq_ = &link(accel_.irq, "cnn_irq");
    assume_cnn_enabled();
    riscv_in_.on_clock_start = [this] {
        spdlog::warn("the firmware starts the RISC-V core at {}, but the folder has no RISC-V image (main_riscv.c)",
                     hex32(periph_.fcr().boot_address()));
    };
}

void Platform::attach_camera() {
    if (!cfg_.registers->find_peripheral(regs::pcif::kName)) return;
    camera_ = std::make_unique<CameraInterface>("pcif", cfg_);
    periph_.attach(*camera_);
}

void Platform::assume_cnn_enabled() {
    const uint32_t all = (1u << cfg_.quadrants) - 1;
    periph_.gcfr().preset(all, all, 0, 0);
    periph_.gcr().preset_cnn_clock_running(true);
    // PowerControl starts so on its own (an accelerator without a SoC).
}

void Platform::assume_soc_reset() {
    const uint32_t all = (1u << cfg_.quadrants) - 1;
    periph_.gcfr().preset(0, 0, all, 0);
    periph_.gcr().preset_cnn_clock_running(false);
    accel_.power().assume_soc_reset();
}

// Every peripheral that raises an interrupt reaches the NVIC input its
// description names; the CNN's reaches its own (configs: cpu.interrupts.cnn).
void Platform::connect_cpu_interrupts() {
    std::vector<unsigned> lines{cfg_.cnn_irq};
    for (Peripheral* p : periph_.peripherals())
        if (p->irq()) lines.push_back(static_cast<unsigned>(p->instance().interrupt));
    CortexM4* cpu = cpu_.get();
    nvic_ =
        std::make_unique<CoreInputs>("nvic", lines, [cpu](unsigned line, bool level) { cpu->set_irq(line, level); });
    for (Peripheral* p : periph_.peripherals())
        if (p->irq())
            link(*p->irq(), "irq_" + std::string(p->basename()),
                 nvic_->irq(static_cast<unsigned>(p->instance().interrupt)));
    add_reader(*cnn_irq_, nvic_->irq(cfg_.cnn_irq));
}

// The CNN interrupt reaches the RISC-V core's controller too; it decides by its enables.
void Platform::connect_riscv_interrupts() {
    RiscvCore* rv = riscv_.get();
    riscv_intc_ = std::make_unique<CoreInputs>("riscv_intc", std::vector<unsigned>{cfg_.riscv.cnn_irq},
                                               [rv](unsigned line, bool level) { rv->set_irq(line, level); });
    add_reader(*cnn_irq_, riscv_intc_->irq(cfg_.riscv.cnn_irq));
}

void Platform::bind_cnn_irq(WireIn<bool>& reader) { add_reader(*cnn_irq_, reader); }

void Platform::listen_cnn_irq(const std::string& who, std::function<void(bool)> on_change) {
    listeners_.push_back(std::make_unique<WireListener<bool>>(who.c_str(), std::move(on_change)));
    bind_cnn_irq(listeners_.back()->in);
}

}  // namespace ai8x
