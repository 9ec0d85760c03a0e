// A GPIO port (soc.gpio0 ..): the pin function, output enable and output
// registers with their set/clear aliases (configs peripherals GPIO). Output
// pins read back what they drive; nothing external drives the inputs.
#pragma once

#include <string>

#include "registers/soc.h"

namespace ai8x {

class Gpio : public Peripheral {
public:
    Gpio(sc_core::sc_module_name name, const DeviceConfig& cfg, const std::string& instance);

private:
    // The *_SET/*_CLR aliases act on their register and store nothing (they read 0).
    void write_en0_set(uint32_t v) { EN0.set(EN0.value() | v); }
    void write_en0_clr(uint32_t v) { EN0.set(EN0.value() & ~v); }
    void write_outen_set(uint32_t v) { OUTEN.set(OUTEN.value() | v); }
    void write_outen_clr(uint32_t v) { OUTEN.set(OUTEN.value() & ~v); }
    void write_out_set(uint32_t v) { OUT.set(OUT.value() | v); }
    void write_out_clr(uint32_t v) { OUT.set(OUT.value() & ~v); }
    uint32_t read_in() { return OUT.value() & OUTEN.value(); }

    regs::gpio::EN0 EN0{*this};
    regs::gpio::EN0_SET EN0_SET{*this};
    regs::gpio::EN0_CLR EN0_CLR{*this};
    regs::gpio::OUTEN OUTEN{*this};
    regs::gpio::OUTEN_SET OUTEN_SET{*this};
    regs::gpio::OUTEN_CLR OUTEN_CLR{*this};
    regs::gpio::OUT OUT{*this};
    regs::gpio::OUT_SET OUT_SET{*this};
    regs::gpio::OUT_CLR OUT_CLR{*this};
    regs::gpio::IN IN{*this};
};

}  // namespace ai8x
