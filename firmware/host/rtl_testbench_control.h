// The RTL testbench's control block `sim` (firmware/rtl/include/rtl_testbench.h
// is the firmware's view): the registers through which the program of an
// RTL-simulation folder reports pass() and fail() and starts the camera stream
// with `sim->trig = 0;`. Not part of the chip; the SoC peripherals route its
// window to it when an RTL folder runs (docs/rtl-flow.md).
#pragma once

#include <cstdint>
#include <functional>

#include <systemc>
#include <tlm>

#include "firmware/host/register_file.h"

namespace ai8x {

class RtlTestbenchControl : public sc_core::sc_module {
public:
    static constexpr uint64_t kBase = 0x4F001000;  // right after the simulation-control device
    static constexpr uint64_t kSize = 0x1000;
    static constexpr uint32_t kId = 0x52544C54;  // "RTLT"

    enum class Core { arm, riscv };

    // trig[0] of run_test.sv: every write of TRIG raises it for kTrigPulse at
    // the write's own instant. The camera interface starts its stream on the
    // rising edge (trig.posedge_event()), as run_test.sv's @(posedge sim.trig[0]).
    sc_core::sc_signal<bool> trig;
    static constexpr double kTrigPulseNs = 1;

    SC_HAS_PROCESS(RtlTestbenchControl);
    explicit RtlTestbenchControl(sc_core::sc_module_name name);

    // pass() / fail() was reached on `core`; `caller` is the return address of the call.
    std::function<void(Core core, uint32_t caller)> on_pass;
    std::function<void(Core core, uint32_t caller)> on_fail;

    // One bus access at `offset`; `delay` is the initiator's local time offset.
    tlm::tlm_response_status access(tlm::tlm_command cmd, uint32_t offset, unsigned size, uint32_t& data,
                                    sc_core::sc_time& delay);

    uint64_t trig_count() const { return trig_count_; }

private:
    void drive_trig();

    RegisterFile regs_;
    sc_core::sc_event_queue trig_request_;  // one entry per TRIG write, at the write's instant
    sc_core::sc_event trig_fall_;
    sc_core::sc_time* delay_ = nullptr;  // the access in progress
    uint64_t trig_count_ = 0;
};

}  // namespace ai8x
