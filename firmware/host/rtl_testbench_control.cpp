#include "firmware/host/rtl_testbench_control.h"

#include <spdlog/spdlog.h>

namespace ai8x {

RtlTestbenchControl::RtlTestbenchControl(sc_core::sc_module_name name)
    : sc_module(name),
      trig("trig"),
      regs_("RTL_TB", {
                          // name     offset reset writable
                          {"TRIG", 0x00, 0, 0xFFFFFFFF},
                          {"PASS", 0x04, 0, 0xFFFFFFFF},
                          {"FAIL", 0x08, 0, 0xFFFFFFFF},
                          {"PASS_RV", 0x0C, 0, 0xFFFFFFFF},
                          {"FAIL_RV", 0x10, 0, 0xFFFFFFFF},
                          {"ID", 0x14, kId, 0},
                      }) {
    SC_METHOD(drive_trig);
    sensitive << trig_request_ << trig_fall_;
    dont_initialize();

    regs_.on_write("TRIG", [this](uint32_t) {
        ++trig_count_;
        trig_request_.notify(*delay_);
    });
    auto report = [](std::function<void(Core, uint32_t)>& to, Core core) {
        return [&to, core](uint32_t caller) {
            if (to) to(core, caller);
        };
    };
    regs_.on_write("PASS", report(on_pass, Core::arm));
    regs_.on_write("FAIL", report(on_fail, Core::arm));
    regs_.on_write("PASS_RV", report(on_pass, Core::riscv));
    regs_.on_write("FAIL_RV", report(on_fail, Core::riscv));
}

// A TRIG write raises the line; it falls kTrigPulseNs later (a later write
// while it is high only moves the fall).
void RtlTestbenchControl::drive_trig() {
    if (trig_fall_.triggered()) {
        trig.write(false);
        return;
    }
    trig.write(true);
    trig_fall_.notify(sc_core::sc_time(kTrigPulseNs, sc_core::SC_NS));
    spdlog::debug("{}: trig[0] at {}", name(), sc_core::sc_time_stamp().to_string());
}

tlm::tlm_response_status RtlTestbenchControl::access(tlm::tlm_command cmd, uint32_t offset, unsigned size,
                                                     uint32_t& data, sc_core::sc_time& delay) {
    delay_ = &delay;
    const bool ok = cmd == tlm::TLM_READ_COMMAND ? regs_.read(offset, size, data) : regs_.write(offset, size, data);
    delay_ = nullptr;
    return ok ? tlm::TLM_OK_RESPONSE : tlm::TLM_ADDRESS_ERROR_RESPONSE;
}

}  // namespace ai8x
