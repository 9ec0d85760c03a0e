// Quadrant register banks from the device description. Every register stores
// all 32 written bits: bits outside the described fields are kept as written
// because nothing documents how the silicon treats them, and behaviour code
// reads only the fields it resolved (register_fields.h).
#include "model/registers/quadrant_registers.h"

namespace ai8x {

namespace {

// Storage of a described global register of the quadrant block.
uint32_t* global_cell(QuadrantRegisters& regs, const std::string& name) {
    if (name == "REG_CTL") return &regs.ctl;
    if (name == "REG_SRAM") return &regs.sram;
    if (name == "REG_LCNT_MAX") return &regs.lcnt_max;
    if (name == "REG_SRAM_TEST") return &regs.sram_test;
    if (name == "REG_IFRM") return &regs.ifrm;
    if (name == "REG_MLAT") return &regs.mlat;
    return nullptr;
}

}  // namespace

std::string layer_register_name(const DeviceConfig& cfg, unsigned kind) {
    return cfg.registers ? cfg.registers->layer_register_name(kind) : "LREG_" + std::to_string(kind);
}

void add_quadrant_registers(RegisterBank& bank, QuadrantRegisters& regs, const DeviceConfig& cfg) {
    const RegisterMap& map = *cfg.registers;
    for (const RegisterDescription& d : map.quadrant) {
        uint32_t* cell = global_cell(regs, d.name);
        if (!cell)
            throw ConfigError(map.source_path + ": register_map.quadrant." + d.name +
                              ": the model has no storage for this register");
        bank.add(register_def(d, d.name, d.offset), cell);
    }
    for (const RegisterDescription& d : map.layer)
        for (uint32_t layer = 0; layer < cfg.max_layers; ++layer)
            bank.add(register_def(d, "L" + std::to_string(layer) + "_" + d.name, d.offset + 4ull * layer),
                     &regs.lreg[d.slot][layer]);
}

}  // namespace ai8x
