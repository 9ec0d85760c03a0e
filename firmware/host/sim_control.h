// Simulation-control device: the simulator services the firmware shim asks
// for (console, exit, delay, sleep, time, LEDs, unhandled-exception report).
// Register map: firmware/shim/include/simctl.h and docs/firmware-shim.md.
#pragma once

#include <cstdint>
#include <functional>

#include <systemc>
#include <tlm>

#include "firmware/host/register_file.h"

namespace ai8x {

class SimControl {
public:
    static constexpr uint64_t kBase = 0x4F000000;  // unused by the MAX78000 peripheral map
    static constexpr uint64_t kSize = 0x1000;
    static constexpr uint32_t kId = 0x53494D43;  // "SIMC"

    SimControl();

    std::function<void(char)> on_console;
    std::function<void(int code)> on_exit;
    std::function<void()> on_sleep;
    std::function<void()> on_fault;     // FAULT: the Cortex-M4's default handler
    std::function<void()> on_fault_rv;  // FAULT_RV: the RISC-V core's unhandled-interrupt handler

    // One bus access at `offset`; `delay` is the initiator's local time offset
    // and grows by the requested delay for DELAY_US.
    tlm::tlm_response_status access(tlm::tlm_command cmd, uint32_t offset, unsigned size, uint32_t& data,
                                    sc_core::sc_time& delay);

    uint32_t leds() { return regs_.value("LEDS"); }

private:
    RegisterFile regs_;
    sc_core::sc_time* delay_ = nullptr;  // the access in progress (for DELAY_US and TIME)
    uint32_t time_hi_latch_ = 0;
};

}  // namespace ai8x
