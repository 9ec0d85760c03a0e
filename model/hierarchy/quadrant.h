// One quadrant of the accelerator (cnn.qQ): sixteen processors, the quadrant's
// control and per-layer registers, its bias memory, its power domain
// (cnn.qQ.power), and the bus side of its blocks (register bank and the four
// memory windows, whose words live in the instances the processors and the
// quadrant own). The quadrant attaches its registers' side effects itself:
// REG_SRAM and REG_SRAM_TEST to its power domain, REG_CTL's MLAT_LD and REG_MLAT
// to its memory translator, and calls the sequencer's side of REG_CTL
// (on_control_write).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "model/accel_state.h"
#include "model/hierarchy/memory_instance.h"
#include "model/hierarchy/processor.h"
#include "model/memories/memory_port.h"
#include "model/power/power_domain.h"
#include "tlm/register_bank.h"

namespace ai8x {

class Quadrant : public sc_core::sc_module {
public:
    // `state`: the accelerator's numbered view of the tree (bound after construction).
    Quadrant(sc_core::sc_module_name name, const DeviceConfig& cfg, uint32_t index, AcceleratorState& state);
    ~Quadrant() override;

    const uint32_t index;
    QuadrantRegisters registers;
    std::vector<std::unique_ptr<MemoryInstance<uint8_t>>> bias;  // instances_per_quadrant of the bias geometry
    std::vector<std::unique_ptr<Processor>> processors;          // local order
    QuadrantActivity activity;

    // The sequencer's side of a REG_CTL write (CNN_EN starts an inference,
    // CLK_EN lets a start that waited for the clock go on), set by the
    // accelerator; REG_CTL's handler runs it before the quadrant's own side.
    std::function<void(uint32_t old_ctl)> on_control_write;

    RegisterBank& register_bank() { return *bank_; }
    PowerDomain& power() { return *power_; }
    // Bus windows of the quadrant's memories: data SRAM, TRAM, bias, kernel.
    const std::vector<std::unique_ptr<MemoryPort>>& memory_ports() const { return ports_; }

    const char* kind() const override { return "ai8x_quadrant"; }

private:
    std::unique_ptr<PowerDomain> power_;
    std::unique_ptr<RegisterBank> bank_;
    std::vector<std::unique_ptr<MemoryPort>> ports_;
};

}  // namespace ai8x
