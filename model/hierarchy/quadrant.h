// One quadrant of the accelerator (cnn.qQ): sixteen processors, the quadrant's
// control and per-layer registers, its bias memory, and the bus side of its
// blocks (register bank and the four memory windows, whose words live in the
// instances the processors and the quadrant own).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "model/accel_state.h"
#include "model/hierarchy/memory_instance.h"
#include "model/hierarchy/processor.h"
#include "model/memories/memory_port.h"
#include "tlm/register_bank.h"

namespace ai8x {

class Quadrant : public sc_core::sc_module {
public:
    Quadrant(sc_core::sc_module_name name, const DeviceConfig& cfg, uint32_t index);
    ~Quadrant() override;

    const uint32_t index;
    QuadrantRegisters registers;
    std::vector<std::unique_ptr<MemoryInstance<uint8_t>>> bias;  // instances_per_quadrant of the bias geometry
    std::vector<std::unique_ptr<Processor>> processors;          // local order
    QuadrantActivity activity;

    RegisterBank& register_bank() { return *bank_; }
    // Bus windows of the quadrant's memories: data SRAM, TRAM, bias, kernel.
    const std::vector<std::unique_ptr<MemoryPort>>& memory_ports() const { return ports_; }

    const char* kind() const override { return "ai8x_quadrant"; }

private:
    std::unique_ptr<RegisterBank> bank_;
    std::vector<std::unique_ptr<MemoryPort>> ports_;
};

}  // namespace ai8x
