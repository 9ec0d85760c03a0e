#include "firmware/host/sim_control.h"

#include <spdlog/spdlog.h>

namespace ai8x {

SimControl::SimControl(sc_core::sc_module_name name, const DeviceConfig& cfg)
    : Peripheral(name, cfg, regs::simctl::kName) {
    CONSOLE.on_write(&SimControl::write_console);
    EXIT.on_write(&SimControl::write_exit);
    DELAY_US.on_write(&SimControl::write_delay_us);
    SLEEP.on_write(&SimControl::write_sleep);
    LEDS.on_write(&SimControl::write_leds);
    FAULT.on_write(&SimControl::write_fault);
    FAULT_RV.on_write(&SimControl::write_fault_rv);
    TIME_LO.on_read(&SimControl::read_time_lo);
    TIME_HI.on_read(&SimControl::read_time_hi);
}

void SimControl::write_console(uint32_t v) {
    CONSOLE.set(v);
    if (on_console) on_console(char(CONSOLE.get(CONSOLE.CHAR)));
}

void SimControl::write_exit(uint32_t v) {
    EXIT.set(v);
    if (on_exit) on_exit(int32_t(v));
}

// The firmware's own time runs on by the delay; no code executes meanwhile.
void SimControl::write_delay_us(uint32_t us) {
    DELAY_US.set(us);
    access_delay() += sc_core::sc_time(double(us), sc_core::SC_US);
}

void SimControl::write_sleep(uint32_t v) {
    SLEEP.set(v);
    if (on_sleep) on_sleep();
}

void SimControl::write_leds(uint32_t v) {
    LEDS.set(v);
    spdlog::debug("{}: LEDs {:#x}", name(), v);
}

void SimControl::write_fault(uint32_t v) {
    FAULT.set(v);
    if (on_fault) on_fault();
}

void SimControl::write_fault_rv(uint32_t v) {
    FAULT_RV.set(v);
    if (on_fault_rv) on_fault_rv();
}

// Reading the low word latches the high word, so a 64-bit time is consistent.
uint32_t SimControl::read_time_lo() {
    const auto us = uint64_t((sc_core::sc_time_stamp() + access_delay()).to_seconds() * 1e6);
    time_hi_latch_ = uint32_t(us >> 32);
    return uint32_t(us);
}

}  // namespace ai8x
