// The RTL testbench's control block `sim` (firmware/rtl/include/rtl_testbench.h
// is the firmware's view): the registers through which the program of an
// RTL-simulation folder reports pass() and fail() and starts the camera stream
// with `sim->trig = 0;`. Not part of the chip; its registers are described with
// the SoC's (configs peripherals RTL_TB) and the board puts it on the SoC
// interconnect only when an RTL folder runs (docs/rtl-flow.md).
#pragma once

#include <cstdint>
#include <functional>

#include "registers/soc.h"

namespace ai8x {

class RtlTestbenchControl : public Peripheral {
public:
    enum class Core { arm, riscv };

    // trig[0] of run_test.sv: every write of TRIG raises it for kTrigPulseNs at
    // the write's own instant. The camera interface starts its stream on the
    // rising edge (trig.posedge_event()), as run_test.sv's @(posedge sim.trig[0]).
    sc_core::sc_signal<bool> trig;
    static constexpr double kTrigPulseNs = 1;

    SC_HAS_PROCESS(RtlTestbenchControl);
    RtlTestbenchControl(sc_core::sc_module_name name, const DeviceConfig& cfg);

    // pass() / fail() was reached on `core`; `caller` is the return address of the call.
    std::function<void(Core core, uint32_t caller)> on_pass;
    std::function<void(Core core, uint32_t caller)> on_fail;

    uint64_t trig_count() const { return trig_count_; }

private:
    void drive_trig();
    void write_trig(uint32_t value);
    void write_pass(uint32_t caller) { report(on_pass, Core::arm, caller); }
    void write_fail(uint32_t caller) { report(on_fail, Core::arm, caller); }
    void write_pass_rv(uint32_t caller) { report(on_pass, Core::riscv, caller); }
    void write_fail_rv(uint32_t caller) { report(on_fail, Core::riscv, caller); }
    static void report(const std::function<void(Core, uint32_t)>& to, Core core, uint32_t caller);

    regs::rtl_tb::TRIG TRIG{*this};
    regs::rtl_tb::PASS_ARM PASS_ARM{*this};
    regs::rtl_tb::FAIL_ARM FAIL_ARM{*this};
    regs::rtl_tb::PASS_RV PASS_RV{*this};
    regs::rtl_tb::FAIL_RV FAIL_RV{*this};
    sc_core::sc_event_queue trig_request_;  // one entry per TRIG write, at the write's instant
    sc_core::sc_event trig_fall_;
    uint64_t trig_count_ = 0;
};

}  // namespace ai8x
