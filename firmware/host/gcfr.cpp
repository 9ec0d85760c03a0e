#include "firmware/host/gcfr.h"

namespace ai8x {

Gcfr::Gcfr(sc_core::sc_module_name name, const DeviceConfig& cfg)
    : Peripheral(name, cfg, regs::gcfr::kName),
      power_enable("power_enable"),
      memory_enable("memory_enable"),
      isolation("isolation"),
      domain_reset("domain_reset") {
    // The outputs start at the registers' reset values (REG2: every quadrant isolated).
    preset(REG0.get(REG0.PWR_EN), REG1.get(REG1.RAM_EN), REG2.get(REG2.ISO), REG3.get(REG3.RST));
    REG0.on_change(REG0.PWR_EN, &Gcfr::change_power);
    REG1.on_change(REG1.RAM_EN, &Gcfr::change_memory);
    REG2.on_change(REG2.ISO, &Gcfr::change_isolation);
    REG3.on_change(REG3.RST, &Gcfr::change_reset);
}

void Gcfr::preset(uint32_t power, uint32_t memory, uint32_t iso, uint32_t reset) {
    REG0.set(REG0.PWR_EN, power);
    REG1.set(REG1.RAM_EN, memory);
    REG2.set(REG2.ISO, iso);
    REG3.set(REG3.RST, reset);
    change_power(REG0.get(REG0.PWR_EN));
    change_memory(REG1.get(REG1.RAM_EN));
    change_isolation(REG2.get(REG2.ISO));
    change_reset(REG3.get(REG3.RST));
}

}  // namespace ai8x
