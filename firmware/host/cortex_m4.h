// Cortex-M4 instruction-set simulator (Unicorn 2) as a SystemC/TLM initiator.
// The bus, memory, timing and call-observer machinery it shares with the
// RISC-V core is UnicornCpu (firmware/host/unicorn_cpu.h); each instruction
// costs cpu.timing.cycles_per_instruction clocks of clocks.cpu_hz. The NVIC is
// modelled here (Unicorn has none): exception entry/return follow the ARMv7-M
// architecture (8-word frame, EXC_RETURN).
#pragma once

#include <cstdint>
#include <vector>

#include <systemc>

#include "firmware/host/system_control_space.h"
#include "firmware/host/unicorn_cpu.h"
#include "tlm/device_config.h"

namespace ai8x {

class CortexM4 : public UnicornCpu {
public:
    CortexM4(sc_core::sc_module_name name, const DeviceConfig& cfg);

    // External interrupt line `irqn` (NVIC numbering: vector entry irqn + 16).
    void set_irq(unsigned irqn, bool level);

    // Simulator services, called by the simulation-control device.
    void request_sleep();               // WFI: run SystemC time until an interrupt is pending
    void report_unhandled_exception();  // firmware's default handler was reached

private:
    void run();
    void start_of_simulation() override;
    void map_system_control_space();
    void reset();
    void execute_chunk();
    uint32_t instruction_bytes(uint16_t halfword) const override;
    int return_address_register() const override { return UC_ARM_REG_LR; }

    // Interrupts
    void sample_irq_lines();
    bool take_interrupt();
    void return_from_exception();

    SystemControlSpace scs_;
    sc_core::sc_event irq_event_;
    std::vector<bool> irq_lines_;  // current level of each external line
    int active_irq_ = -1;          // exception being handled (no nesting), -1 = thread mode
    // Set when an exception is taken, consumed by the next sleep request,
    // which then returns at once (like the WFE event register). Interrupts are
    // taken only between instruction blocks, so one can land between the
    // firmware's "done yet?" check and its sleep; without this the CPU would
    // sleep through the wake-up it was waiting for.
    bool wake_event_ = false;
};

}  // namespace ai8x
