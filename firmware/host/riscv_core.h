// The MAX78000's RISC-V core (Unicorn 2, RV32) as a second TLM initiator on
// the same bus as the Cortex-M4: same flash, SRAM, peripherals and
// accelerator, its own clock and cost model (configs: riscv). The bus, time
// and call-observer machinery is UnicornCpu's.
//
// Held in reset until the Arm releases it (GCR PCLKDIS1.CPU1 cleared, see
// SocPeripherals): it then starts at the boot address the Arm wrote to FCR
// URVBOOTADDR. Its interrupt controller is core-local at riscv.intc (INTR and
// EVENT blocks of the MSDK's core_rv32.h): per-interrupt enable, pending,
// set/clear pending, and event enables that only wake a WFI. An interrupt
// is taken between instruction blocks when it is pending, enabled and
// mstatus.MIE is set: mepc/mcause/mstatus are written as a RISC-V machine-mode
// trap does and execution continues at boot address + 4 * IRQ (the vendor's
// jump table); the handler's mret is executed by Unicorn itself. The WFI
// instruction ends Unicorn's run (QEMU halts on it); the core then sleeps in
// SystemC time until an enabled interrupt or event is pending.
#pragma once

#include <cstdint>
#include <vector>

#include <systemc>

#include "firmware/host/unicorn_cpu.h"
#include "tlm/device_config.h"
#include "tlm/repeated_warnings.h"

namespace ai8x {

class RiscvCore : public UnicornCpu {
public:
    RiscvCore(sc_core::sc_module_name name, const DeviceConfig& cfg);

    // Interrupt line `irq` of this core (RISC-V numbering, e.g. riscv.cnn_irq).
    void set_irq(unsigned irq, bool level);
    // The Arm gave the core its clock: run from `boot_address` (ignored once running).
    void release(uint32_t boot_address);
    bool released() const { return released_; }
    // The firmware's unhandled-interrupt handler was reached (simulation-control device).
    void report_unhandled_exception();

private:
    void run();
    void start_of_simulation() override;
    void map_interrupt_controller();
    void execute_chunk();
    bool take_interrupt();
    bool wake_pending() const;  // an enabled interrupt or event is pending
    uint64_t pending() const;   // latched pending bits plus the lines now high
    uint32_t instruction_bytes(uint16_t halfword) const override;
    int return_address_register() const override;
    int return_value_register() const override;
    uint32_t intc_read(uint32_t offset);
    void intc_write(uint32_t offset, uint32_t value);

    sc_core::sc_event wake_event_;  // release, a line rising, a set-pending write
    bool released_ = false;
    uint32_t boot_address_ = 0;
    std::vector<bool> lines_;     // current level of each interrupt line
    uint64_t irq_enable_ = 0;     // INTR irq0/irq1_enable
    uint64_t irq_latched_ = 0;    // pending by a line edge or a set-pending write
    uint64_t event_enable_ = 0;   // EVENT event0/event1_enable
    uint64_t event_latched_ = 0;  // pending events (set with the interrupt's edge)
    int active_irq_ = -1;         // for messages: interrupt whose handler was entered last

    // Accesses to interrupt controller registers the model lacks.
    RepeatedWarnings unmodelled_{name()};
};

}  // namespace ai8x
