#include "firmware/host/gpio.h"

namespace ai8x {

Gpio::Gpio(sc_core::sc_module_name name, const DeviceConfig& cfg, const std::string& instance)
    : Peripheral(name, cfg, instance) {
    EN0_SET.on_write(&Gpio::write_en0_set);
    EN0_CLR.on_write(&Gpio::write_en0_clr);
    OUTEN_SET.on_write(&Gpio::write_outen_set);
    OUTEN_CLR.on_write(&Gpio::write_outen_clr);
    OUT_SET.on_write(&Gpio::write_out_set);
    OUT_CLR.on_write(&Gpio::write_out_clr);
    IN.on_read(&Gpio::read_in);
}

}  // namespace ai8x
