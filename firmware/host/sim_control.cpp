#include "firmware/host/sim_control.h"

#include <spdlog/spdlog.h>

namespace ai8x {

SimControl::SimControl()
    : regs_("SIMCTL", {
                          // name       offset reset  writable
                          {"CONSOLE", 0x00, 0, 0x000000FF},
                          {"EXIT", 0x04, 0, 0xFFFFFFFF},
                          {"DELAY_US", 0x08, 0, 0xFFFFFFFF},
                          {"SLEEP", 0x0C, 0, 0x00000001},
                          {"TIME_LO", 0x10, 0, 0},
                          {"TIME_HI", 0x14, 0, 0},
                          {"LEDS", 0x18, 0, 0xFFFFFFFF},
                          {"FAULT", 0x1C, 0, 0x00000001},
                          {"ID", 0x20, kId, 0},
                          {"FAULT_RV", 0x24, 0, 0x00000001},
                      }) {
    regs_.on_write("CONSOLE", [this](uint32_t v) {
        if (on_console) on_console(char(v));
    });
    regs_.on_write("EXIT", [this](uint32_t v) {
        if (on_exit) on_exit(int32_t(v));
    });
    regs_.on_write("DELAY_US", [this](uint32_t us) { *delay_ += sc_core::sc_time(double(us), sc_core::SC_US); });
    regs_.on_write("SLEEP", [this](uint32_t) {
        if (on_sleep) on_sleep();
    });
    regs_.on_write("FAULT", [this](uint32_t) {
        if (on_fault) on_fault();
    });
    regs_.on_write("FAULT_RV", [this](uint32_t) {
        if (on_fault_rv) on_fault_rv();
    });
    regs_.on_write("LEDS", [](uint32_t v) { spdlog::debug("SIMCTL: LEDs {:#x}", v); });
    // Reading the low word latches the high word, so a 64-bit time is consistent.
    regs_.on_read("TIME_LO", [this] {
        auto us = uint64_t((sc_core::sc_time_stamp() + *delay_).to_seconds() * 1e6);
        time_hi_latch_ = uint32_t(us >> 32);
        return uint32_t(us);
    });
    regs_.on_read("TIME_HI", [this] { return time_hi_latch_; });
}

tlm::tlm_response_status SimControl::access(tlm::tlm_command cmd, uint32_t offset, unsigned size, uint32_t& data,
                                            sc_core::sc_time& delay) {
    delay_ = &delay;
    bool ok = cmd == tlm::TLM_READ_COMMAND ? regs_.read(offset, size, data) : regs_.write(offset, size, data);
    delay_ = nullptr;
    return ok ? tlm::TLM_OK_RESPONSE : tlm::TLM_ADDRESS_ERROR_RESPONSE;
}

}  // namespace ai8x
