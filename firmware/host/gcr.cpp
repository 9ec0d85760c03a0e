#include "firmware/host/gcr.h"

#include <spdlog/spdlog.h>

namespace ai8x {

Gcr::Gcr(sc_core::sc_module_name name, const DeviceConfig& cfg)
    : Peripheral(name, cfg, regs::gcr::kName),
      cnn_clock_hz("cnn_clock_hz", cfg.clocks.pclk_hz),
      cnn_clock_running("cnn_clock_running"),
      riscv_clock_running("riscv_clock_running") {
    check_clock_codes();
    cnn_clock_running.write(!PCLKDIS0.is_set(PCLKDIS0.CNN));  // the reset values: both gated
    riscv_clock_running.write(!PCLKDIS1.is_set(PCLKDIS1.CPU1));
    CLKCTRL.on_write(&Gcr::write_clkctrl);
    IPLL_CTRL.on_write(&Gcr::write_ipll_ctrl);
    PCLKDIV.on_write(&Gcr::write_pclkdiv);
    PCLKDIS0.on_change(PCLKDIS0.CNN, &Gcr::change_cnn_gate);
    PCLKDIS1.on_change(PCLKDIS1.CPU1, &Gcr::change_cpu1_gate);
}

// Every CNNCLKSEL and CNNCLKDIV code the firmware can write must name a clock
// and a divisor (clocks.cnn_clock), or the clock a run uses would be a guess.
void Gcr::check_clock_codes() const {
    const ClockConfig& c = config().clocks;
    for (uint32_t code = 0; code <= PCLKDIV.CNNCLKSEL.get(~0u); ++code)
        if (!c.cnn_sources.count(code))
            throw ConfigError(config().source_path + ": clocks.cnn_clock.sources: no clock for CNNCLKSEL code " +
                              std::to_string(code));
    for (uint32_t code = 0; code <= PCLKDIV.CNNCLKDIV.get(~0u); ++code)
        if (!c.cnn_dividers.count(code))
            throw ConfigError(config().source_path + ": clocks.cnn_clock.dividers: no divisor for CNNCLKDIV code " +
                              std::to_string(code));
}

// The virtual oscillators are ready as soon as they are enabled, and a switch
// of the system clock is done at once (the RTL programs wait for both).
void Gcr::write_clkctrl(uint32_t value) {
    const uint32_t ready = CLKCTRL.OSC_RDY.with(value, CLKCTRL.OSC_EN.get(value));
    CLKCTRL.set(CLKCTRL.SYSCLK_RDY.with(ready, 1));
}

// A device with a PLL (clocks.ipll_hz) locks it at once: RDY follows EN.
// Without one RDY never rises.
void Gcr::write_ipll_ctrl(uint32_t value) {
    const bool locked = config().clocks.ipll_hz > 0 && IPLL_CTRL.EN.is_set(value);
    IPLL_CTRL.set(IPLL_CTRL.RDY.with(value, locked ? 1 : 0));
}

double Gcr::cnn_clock() const {
    const ClockConfig& c = config().clocks;
    const ClockConfig::Source source = c.cnn_sources.at(PCLKDIV.get(PCLKDIV.CNNCLKSEL));
    return c.hz_of(source) / c.cnn_dividers.at(PCLKDIV.get(PCLKDIV.CNNCLKDIV));
}

void Gcr::write_pclkdiv(uint32_t value) {
    PCLKDIV.set(value);
    spdlog::debug("{}: CNN clock {:.3f} MHz", name(), cnn_clock() / 1e6);
    cnn_clock_hz.write(cnn_clock());
}

void Gcr::change_cnn_gate(uint32_t gated) {
    spdlog::debug("{}: CNN peripheral clock {}", name(), gated ? "gated" : "running");
    cnn_clock_running.write(!gated);
}

void Gcr::preset_cnn_clock_running(bool running) {
    PCLKDIS0.set(PCLKDIS0.CNN, running ? 0 : 1);
    cnn_clock_running.write(running);
}

void Gcr::change_cpu1_gate(uint32_t gated) {
    if (!gated) spdlog::debug("{}: RISC-V core clock enabled", name());
    riscv_clock_running.write(!gated);
}

}  // namespace ai8x
