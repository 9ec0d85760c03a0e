// The board's wires (app/platform.h): the SoC's clock and power outputs to the
// accelerator, the RISC-V core's clock, and the peripherals' interrupts to the
// Cortex-M4's NVIC inputs.
#include <spdlog/spdlog.h>

#include "app/platform.h"
#include "firmware/host/elf_image.h"

namespace ai8x {

void Platform::connect_soc() {
    periph_.attach(accel_.fast_fifo());
    attach_camera();
    Gcr& gcr = periph_.gcr();
    Gcfr& gcfr = periph_.gcfr();
    PowerControl& power = accel_.power();
    accel_.cnn_clock.bind(wires_.connect(gcr.cnn_clock_hz, "cnn_clock_hz"));
    power.cnn_clock_running.bind(wires_.connect(gcr.cnn_clock_running, "cnn_clock_running"));
    power.power_enable.bind(wires_.connect(gcfr.power_enable, "cnn_power_enable"));
    power.memory_enable.bind(wires_.connect(gcfr.memory_enable, "cnn_memory_enable"));
    power.isolation.bind(wires_.connect(gcfr.isolation, "cnn_isolation"));
    power.domain_reset.bind(wires_.connect(gcfr.domain_reset, "cnn_domain_reset"));
    riscv_in_.clock.bind(wires_.connect(gcr.riscv_clock_running, "riscv_clock_running"));
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

// Every peripheral that raises an interrupt reaches the NVIC input its description names.
void Platform::connect_cpu_interrupts() {
    std::vector<unsigned> lines;
    for (Peripheral* p : periph_.peripherals())
        if (p->irq()) lines.push_back(static_cast<unsigned>(p->instance().interrupt));
    CortexM4* cpu = cpu_.get();
    nvic_ =
        std::make_unique<CoreInputs>("nvic", lines, [cpu](unsigned line, bool level) { cpu->set_irq(line, level); });
    for (Peripheral* p : periph_.peripherals())
        if (p->irq())
            nvic_->irq(static_cast<unsigned>(p->instance().interrupt))
                .bind(wires_.connect(*p->irq(), ("irq_" + std::string(p->basename())).c_str()));
}

}  // namespace ai8x
