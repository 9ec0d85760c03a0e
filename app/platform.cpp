#include "app/platform.h"

#include <spdlog/spdlog.h>

namespace ai8x {

namespace {

// Extra bus cycles per access to an accelerator window: the input FIFO block
// has its own price (configs: bus.accel_fifo_wait_states), registers and
// memories theirs.
unsigned accelerator_wait_states(const DeviceConfig& cfg, const AddressWindow& w) {
    if (w.base == cfg.fifo_regs.base) return cfg.bus.accel_fifo_wait_states;
    return w.is_register_block ? cfg.bus.accel_reg_wait_states : cfg.bus.accel_mem_wait_states;
}

}  // namespace

Platform::Platform(const DeviceConfig& cfg)
    : cfg_(cfg), bus_("bus"), periph_("soc", cfg_), accel_("cnn", cfg_), riscv_in_("riscv_in", {}, nullptr) {
    bus_.set_clock_period(sc_core::sc_time(1.0 / cfg_.clocks.cpu_hz, sc_core::SC_SEC));
    unsigned port = 0;
    for (const auto& r : cfg_.cpu_regions) {
        memories_.push_back(std::make_unique<MemoryTarget>(r.name.c_str(), r.base, r.size, r.writable));
        bus_.init_socket.bind(memories_.back()->socket);
        bus_.map(port++, r.name, r.base, r.size, r.writable ? cfg_.bus.sram_wait_states : cfg_.bus.flash_wait_states);
    }
    bus_.init_socket.bind(periph_.socket);
    bus_.map(port++, "peripherals", cfg_.peripheral_base, cfg_.peripheral_size, 0);
    bus_.init_socket.bind(accel_.socket);
    for (const auto& w : accel_.windows()) bus_.map(port, w.name, w.base, w.size, accelerator_wait_states(cfg_, w));
    ++port;

    connect_soc();
}

CortexM4& Platform::add_cpu() {
    if (cpu_) throw std::logic_error("Platform::add_cpu: the board has one CPU");
    cpu_ = std::make_unique<CortexM4>("cpu", cfg_);
    bind_initiator(cpu_->socket, "cpu");
    CortexM4* cpu = cpu_.get();
    cpu->push_awaited = [this] { return accel_.fifo_block().consumer_waiting() || accel_.fifo_block().observed(); };
    const uint64_t base = cfg_.fifo_regs.base, size = cfg_.fifo_regs.size;  // the input FIFO block
    cpu->access_settled = [this, base, size](uint32_t address, bool write) {
        return address - base < size && accel_.fifo_block().settled_access(address - base, write);
    };
    cpu->access_time_neutral = [this, base, size](uint32_t address, bool write) {
        return address - base < size && accel_.fifo_block().time_neutral(address - base, write);
    };
    // Firmware starts from the SoC's reset: the CNN unpowered, isolated, its clock
    // gated, until the firmware's cnn_enable(). (Without a CPU, e.g. replaying a
    // trace of the accelerator's windows only, it stays as cnn_enable() leaves it.)
    assume_soc_reset();
    SimControl& sim = periph_.sim_control();
    sim.on_sleep = [cpu] { cpu->request_sleep(); };
    sim.on_fault = [cpu] { cpu->report_unhandled_exception(); };
    connect_cpu_interrupts();
    return *cpu;
}

RiscvCore& Platform::add_riscv() {
    if (!cpu_) throw std::logic_error("Platform::add_riscv: add the Cortex-M4 first");
    if (riscv_) throw std::logic_error("Platform::add_riscv: the board has one RISC-V core");
    riscv_ = std::make_unique<RiscvCore>("riscv", cfg_);
    bind_initiator(riscv_->socket, "riscv");
    RiscvCore* rv = riscv_.get();
    rv->push_awaited = [this] { return accel_.fifo_block().consumer_waiting() || accel_.fifo_block().observed(); };
    // Both cores can fill the input FIFOs (the fast FIFO): neither may take a
    // FIFO's state now for its state at its own instant.
    accel_.fifo_block().set_single_writer(false);
    connect_riscv_interrupts();
    riscv_in_.on_clock_start = [this, rv] { rv->release(periph_.fcr().boot_address()); };
    periph_.sim_control().on_fault_rv = [rv] { rv->report_unhandled_exception(); };
    return *rv;
}

RtlTestbenchControl& Platform::add_rtl_testbench() {
    if (rtl_testbench_) throw std::logic_error("Platform::add_rtl_testbench: the board has one testbench");
    rtl_testbench_ = std::make_unique<RtlTestbenchControl>("rtl_testbench", cfg_);
    periph_.attach(*rtl_testbench_);
    // run_test.sv starts the camera stream at @(posedge sim.trig[0]).
    if (camera_) {
        camera_->trigger.bind(rtl_testbench_->trig);
        wiring_.push_back(
            {"camera_trigger", rtl_testbench_->trig.name(), {camera_->trigger.name()}, &rtl_testbench_->trig});
    }
    return *rtl_testbench_;
}

void Platform::bind_initiator(tlm::tlm_initiator_socket<32>& s, const std::string& name) {
    s.bind(bus_.targ_socket);
    bus_.name_initiator(initiators_++, name);
}

}  // namespace ai8x
