// One of the accelerator's 64 processors (cnn.qQ.pP, P numbered globally).
// It owns its kernel (weight) memory and its TRAM; the first processor of each
// group that shares a data memory instance owns that instance too (the data
// SRAM at cnn.q0.p4.sram serves processors 4 to 7). The layer engine computes
// a whole layer at a time, so a processor holds storage and counters, not a
// process of its own.
#pragma once

#include <memory>

#include <systemc>

#include "model/accel_state.h"
#include "model/hierarchy/memory_instance.h"

namespace ai8x {

class Processor : public sc_core::sc_module {
public:
    Processor(sc_core::sc_module_name name, const DeviceConfig& cfg, uint32_t global_index);

    const uint32_t index;  // 0..63
    MemoryInstance<KernelWord> kernel;
    MemoryInstance<uint16_t> tram;
    std::unique_ptr<MemoryInstance<uint32_t>> data_sram;  // only on the first processor of its group
    ProcessorActivity activity;

    const char* kind() const override { return "ai8x_processor"; }
};

}  // namespace ai8x
