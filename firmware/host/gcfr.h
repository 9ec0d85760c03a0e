// General control function registers (soc.gcfr): the CNN's power domains,
// one bit per quadrant in each register (configs peripherals GCFR). Its
// outputs drive the accelerator's power control (cnn.power).
#pragma once

#include <cstdint>

#include "registers/soc.h"
#include "tlm/wire.h"

namespace ai8x {

class Gcfr : public Peripheral {
public:
    WireOut<uint32_t> power_enable;   // REG0.PWR_EN: bit q, quadrant q powered
    WireOut<uint32_t> memory_enable;  // REG1.RAM_EN: bit q, quadrant q's memories supplied
    WireOut<uint32_t> isolation;      // REG2.ISO: bit q, quadrant q isolated from the bus
    WireOut<uint32_t> domain_reset;   // REG3.RST: bit q, quadrant q held in reset

    Gcfr(sc_core::sc_module_name name, const DeviceConfig& cfg);

    // Sets the four masks (registers and outputs) without a bus write: for a
    // board that starts other than from the SoC's reset (app/board_wiring.cpp).
    void preset(uint32_t power, uint32_t memory, uint32_t iso, uint32_t reset);

private:
    void change_power(uint32_t mask) { power_enable.write(mask); }
    void change_memory(uint32_t mask) { memory_enable.write(mask); }
    void change_isolation(uint32_t mask) { isolation.write(mask); }
    void change_reset(uint32_t mask) { domain_reset.write(mask); }

    regs::gcfr::REG0 REG0{*this};
    regs::gcfr::REG1 REG1{*this};
    regs::gcfr::REG2 REG2{*this};
    regs::gcfr::REG3 REG3{*this};
};

}  // namespace ai8x
