// Simulation-control device (soc.simctl): the simulator services the firmware
// shim asks for (console, exit, delay, sleep, time, LEDs, unhandled-exception
// report). Not part of the chip; its registers are described with the SoC's
// (configs peripherals SIMCTL; firmware/shim/include/simctl.h and
// docs/firmware-shim.md). The services are requests to the simulator, not
// signals of the chip, so the board answers them through the hooks below.
#pragma once

#include <cstdint>
#include <functional>

#include "registers/soc.h"

namespace ai8x {

class SimControl : public Peripheral {
public:
    SimControl(sc_core::sc_module_name name, const DeviceConfig& cfg);

    std::function<void(char)> on_console;
    std::function<void(int code)> on_exit;
    std::function<void()> on_sleep;
    std::function<void()> on_fault;     // FAULT: the Cortex-M4's default handler
    std::function<void()> on_fault_rv;  // FAULT_RV: the RISC-V core's unhandled-interrupt handler

    uint32_t leds() const { return LEDS.value(); }

private:
    void write_console(uint32_t v);
    void write_exit(uint32_t v);
    void write_delay_us(uint32_t us);
    void write_sleep(uint32_t v);
    void write_leds(uint32_t v);
    void write_fault(uint32_t v);
    void write_fault_rv(uint32_t v);
    uint32_t read_time_lo();
    uint32_t read_time_hi() { return time_hi_latch_; }

    regs::simctl::CONSOLE CONSOLE{*this};
    regs::simctl::EXIT EXIT{*this};
    regs::simctl::DELAY_US DELAY_US{*this};
    regs::simctl::SLEEP SLEEP{*this};
    regs::simctl::TIME_LO TIME_LO{*this};
    regs::simctl::TIME_HI TIME_HI{*this};
    regs::simctl::LEDS LEDS{*this};
    regs::simctl::FAULT FAULT{*this};
    regs::simctl::FAULT_RV FAULT_RV{*this};
    uint32_t time_hi_latch_ = 0;
};

}  // namespace ai8x
