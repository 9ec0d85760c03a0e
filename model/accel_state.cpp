#include "model/accel_state.h"

namespace ai8x {

AcceleratorState::AcceleratorState(const DeviceConfig& c) : cfg(c) { reset(); }

void AcceleratorState::reset() {
    const uint32_t quads = cfg.quadrants;
    data_sram.assign(cfg.data_sram.instances_total(quads), std::vector<uint32_t>(cfg.data_sram.words, 0));
    tram.assign(cfg.tram.instances_total(quads), std::vector<uint16_t>(cfg.tram.words, 0));
    kernel.assign(cfg.kernel_mem.instances_total(quads), std::vector<KernelWord>(cfg.kernel_mem.words, KernelWord{}));
    bias.assign(cfg.bias_mem.instances_total(quads), std::vector<uint8_t>(cfg.bias_mem.words, 0));
    quadrant.assign(quads, QuadrantRegisters{});
    for (auto& q : quadrant)
        q.lreg.assign(cfg.layer_register_count, std::vector<uint32_t>(cfg.max_layers, 0));
    fifo_ctl = fifo_stat = aon_ctl = 0;
}

}  // namespace ai8x
