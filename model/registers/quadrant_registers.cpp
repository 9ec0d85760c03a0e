// Quadrant register banks from the device description. Every register stores
// all 32 written bits: bits outside the described fields are kept as written
// because nothing documents how the silicon treats them, and behaviour code
// reads only the fields it resolved (register_fields.h).
#include "model/registers/quadrant_registers.h"

namespace ai8x {

namespace {

// Index of the global register called `name`; kQuadrantRegisters for none.
unsigned global_of(const std::string& name) {
    for (unsigned r = 0; r < kQuadrantRegisters; ++r)
        if (name == quadrant_register_name(QuadrantRegister(r))) return r;
    return kQuadrantRegisters;
}

// Storage index of the per-layer kind called `name`; kLayerRegisterKinds for none.
unsigned kind_of(const std::string& name) {
    for (unsigned k = 0; k < kLayerRegisterKinds; ++k)
        if (const char* n = layer_register_kind_name(k); n && name == n) return k;
    return kLayerRegisterKinds;
}

}  // namespace

std::string layer_register_name(const DeviceConfig&, unsigned kind) {
    const char* name = layer_register_kind_name(kind);
    return name ? name : "LREG_" + std::to_string(kind);
}

void add_quadrant_registers(RegisterBank& bank, QuadrantRegisters& regs, const DeviceConfig& cfg) {
    const RegisterMap& map = *cfg.registers;
    for (const RegisterDescription& d : map.quadrant) {
        const unsigned r = global_of(d.name);
        if (r >= kQuadrantRegisters)
            throw ConfigError(map.source_path + ": register_map.quadrant." + d.name +
                              ": the model has no storage for this register");
        uint32_t* cell = &regs.global(QuadrantRegister(r));
        *cell = d.reset;
        bank.add(register_def(d, d.name, d.offset), cell);
    }
    for (const RegisterDescription& d : map.layer) {
        const unsigned kind = kind_of(d.name);
        if (kind >= kLayerRegisterKinds)
            throw ConfigError(map.source_path + ": register_map.layer." + d.name +
                              ": the model has no storage for this per-layer register");
        for (uint32_t layer = 0; layer < d.layers; ++layer)
            bank.add(register_def(d, "L" + std::to_string(layer) + "_" + d.name, RegisterMap::layer_offset(d, layer)),
                     &regs.lreg[kind][layer]);
    }
}

}  // namespace ai8x
