#include "model/registers/fifo_registers.h"

#include <string>

namespace ai8x {

uint64_t fifo_data_offset(const DeviceConfig& cfg, uint32_t i) {
    const RegisterDescription& d = cfg.registers->fifo_register("FIFO_WR");
    return d.offset + i * d.step;
}

void add_fifo_registers(RegisterBank& bank, AcceleratorState& state, std::vector<uint32_t>& last_written) {
    const RegisterMap& map = *state.cfg.registers;
    last_written.assign(state.cfg.fifo_count, 0);
    for (const RegisterDescription& d : map.fifo) {
        if (d.name == "FIFO_CTL")
            bank.add(register_def(d, d.name, d.offset), &state.fifo_ctl);
        else if (d.name == "FIFO_STAT")
            bank.add(register_def(d, d.name, d.offset), &state.fifo_stat);
        else if (d.name == "FIFO_WR")
            for (uint32_t i = 0; i < d.count; ++i)
                bank.add(register_def(d, d.name + std::to_string(i), d.offset + i * d.step), &last_written[i]);
        else
            throw ConfigError(map.source_path + ": register_map.fifo." + d.name +
                              ": the model has no storage for this register");
    }
}

void add_aon_registers(RegisterBank& bank, AcceleratorState& state) {
    const RegisterMap& map = *state.cfg.registers;
    for (const RegisterDescription& d : map.aon) {
        if (d.name != "AON_CTL")
            throw ConfigError(map.source_path + ": register_map.aon." + d.name +
                              ": the model has no storage for this register");
        bank.add(register_def(d, d.name, d.offset), &state.aon_ctl);
    }
}

}  // namespace ai8x
