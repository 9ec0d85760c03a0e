#include "model/hierarchy/processor.h"

namespace ai8x {

Processor::Processor(sc_core::sc_module_name name, const DeviceConfig& cfg, uint32_t global_index)
    : sc_module(name),
      index(global_index),
      kernel("kernel", cfg.kernel_mem.words, cfg.max_layers),
      tram("tram", cfg.tram.words, cfg.max_layers) {
    if (global_index % cfg.processors_per_data_sram == 0)
        data_sram = std::make_unique<MemoryInstance<uint32_t>>("sram", cfg.data_sram.words, cfg.max_layers);
    activity.size_for(cfg.max_layers);
}

}  // namespace ai8x
