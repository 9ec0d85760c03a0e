#include "firmware/host/rtl_testbench_control.h"

#include <spdlog/spdlog.h>

namespace ai8x {

RtlTestbenchControl::RtlTestbenchControl(sc_core::sc_module_name name, const DeviceConfig& cfg)
    : Peripheral(name, cfg, regs::rtl_tb::kName), trig("trig") {
    SC_METHOD(drive_trig);
    sensitive << trig_request_ << trig_fall_;
    dont_initialize();

    TRIG.on_write(&RtlTestbenchControl::write_trig);
    PASS_ARM.on_write(&RtlTestbenchControl::write_pass);
    FAIL_ARM.on_write(&RtlTestbenchControl::write_fail);
    PASS_RV.on_write(&RtlTestbenchControl::write_pass_rv);
    FAIL_RV.on_write(&RtlTestbenchControl::write_fail_rv);
}

void RtlTestbenchControl::write_trig(uint32_t value) {
    TRIG.set(value);
    ++trig_count_;
    trig_request_.notify(access_delay());
}

void RtlTestbenchControl::report(const std::function<void(Core, uint32_t)>& to, Core core, uint32_t caller) {
    if (to) to(core, caller);
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
    if (spdlog::should_log(spdlog::level::debug))
        spdlog::debug("{}: trig[0] at {}", name(), sc_core::sc_time_stamp().to_string());
}

}  // namespace ai8x
