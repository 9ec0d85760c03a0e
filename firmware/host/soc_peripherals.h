// The MAX78000 peripherals generated firmware touches (through the shim),
// plus the simulation-control device, as one TLM target for the peripheral
// window. Each block is a register table at its real address; an address no
// block decodes is answered with an address error (and so becomes a bus fault).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "firmware/host/register_file.h"
#include "firmware/host/sim_control.h"
#include "tlm/device_config.h"

namespace ai8x {

class SocPeripherals : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<SocPeripherals, 32> socket;

    SocPeripherals(sc_core::sc_module_name name, const DeviceConfig& cfg);

    SimControl& sim_control() { return simctl_; }
    // CNN clock in Hz as selected by GCR.PCLKDIV (source and divider), called
    // at every write of that register.
    std::function<void(double hz)> on_cnn_clock;
    double cnn_clock_hz() const;
    // GCFR register `reg` (0 power, 1 memory enable, 2 isolation, 3 reset; one
    // bit per CNN quadrant) was written and now holds `value`.
    std::function<void(unsigned reg, uint32_t value)> on_cnn_power;
    // GCR PCLKDIS0.CNN was written: true when the CNN peripheral clock runs.
    std::function<void(bool running)> on_cnn_peripheral_clock;
    // GCR PCLKDIS1 bit soc.riscv_clock_bit was cleared: the RISC-V core may
    // run from `boot_address` (FCR URVBOOTADDR at that moment).
    std::function<void(uint32_t boot_address)> on_riscv_release;
    // SEMA IRQ0 was written: the interrupt to the Cortex-M4 (EN and CM4_IRQ both set).
    std::function<void(bool level)> on_arm_irq_from_riscv;
    // The fast FIFO's APB block (soc.fast_fifo); without one its window answers errors.
    std::function<bool(bool is_read, uint32_t offset, uint32_t& data)> fast_fifo_access;

    uint32_t register_value(const std::string& block, const std::string& reg);

    // A device of the board that is not a SoC block but answers in the
    // peripheral window (the RTL testbench's control block): accesses to
    // [base, base + size) go to `access` (offset from base).
    using DeviceAccess = std::function<tlm::tlm_response_status(tlm::tlm_command, uint32_t offset, unsigned size,
                                                                uint32_t& data, sc_core::sc_time& delay)>;
    void map_device(uint64_t base, uint64_t size, DeviceAccess access);

private:
    struct Block {
        uint64_t base, size;
        RegisterFile regs;
    };
    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    unsigned transport_dbg(tlm::tlm_generic_payload& trans);
    // No direct memory access; a query's SyncHint (tlm/sync_hint.h) learns
    // which accesses must happen at the initiator's instant (the fast FIFO).
    bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
    Block* decode(uint64_t address, unsigned size);
    void add_gpio(const std::string& name, uint64_t base);
    void add_dual_core_blocks();

    const DeviceConfig& cfg_;
    std::vector<std::unique_ptr<Block>> blocks_;
    struct MappedDevice {
        uint64_t base, size;
        DeviceAccess access;
    };
    std::vector<MappedDevice> devices_;
    SimControl simctl_;
    uint32_t pclkdiv_ = 0;
};

}  // namespace ai8x
