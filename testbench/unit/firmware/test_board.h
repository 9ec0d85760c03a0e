// A minimal board for CPU tests: bus, flash, SRAM, SoC peripherals and a
// stand-in interrupt source at the accelerator's quadrant-0 control address,
// so the CPU can be tested without the accelerator model.
#pragma once

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "firmware/host/cortex_m4.h"
#include "firmware/host/firmware_builder.h"
#include "firmware/host/soc_peripherals.h"
#include "tlm/ahb_bus.h"
#include "tlm/memory_target.h"
#include "tlm/sync_hint.h"
#include "testbench/unit/test_support.h"
#include "build_paths.h"

namespace ai8x::test {

// Writing 1 raises the interrupt `delay` later; writing 0 lowers it. Reads
// return 1 (busy) from a write of 1 until the interrupt rises, else 0.
class DelayedIrqDevice : public sc_core::sc_module {
public:
    static constexpr uint64_t kAddress = 0x50100000;
    tlm_utils::simple_target_socket<DelayedIrqDevice, 32> socket;
    std::function<void(bool)> irq;
    sc_core::sc_time delay = sc_core::sc_time(50, sc_core::SC_US);
    sc_core::sc_time raised_at;
    // Declares its register racing with SystemC time (tlm/sync_hint.h), as the
    // input FIFOs do: a CPU then writes it at its own instant, not ahead.
    bool declares_sync = false;
    std::vector<sc_core::sc_time> write_delays;  // the annotated delay of every write
    uint64_t reads = 0;                          // reads that reached it

    explicit DelayedIrqDevice(sc_core::sc_module_name n) : sc_module(n), socket("socket") {
        socket.register_b_transport(this, &DelayedIrqDevice::b_transport);
        socket.register_get_direct_mem_ptr(this, &DelayedIrqDevice::get_direct_mem_ptr);
        SC_HAS_PROCESS(DelayedIrqDevice);
        SC_METHOD(fire);
        sensitive << start_;
        dont_initialize();
    }

private:
    void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& d) {
        if (t.get_address() != kAddress || t.get_data_length() != 4) {
            t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
            return;
        }
        if (t.is_write()) {
            write_delays.push_back(d);
            uint32_t v;
            std::memcpy(&v, t.get_data_ptr(), 4);
            busy_ = v & 1;
            if (busy_)
                start_.notify(d + delay);
            else if (irq)
                irq(false);
        } else {
            ++reads;
            const uint32_t status = busy_ ? 1 : 0;
            std::memcpy(t.get_data_ptr(), &status, 4);
        }
        t.set_response_status(tlm::TLM_OK_RESPONSE);
    }
    bool get_direct_mem_ptr(tlm::tlm_generic_payload& t, tlm::tlm_dmi&) {
        if (declares_sync) answer_sync_hint(t, {{kAddress, kAddress + 3}});
        return false;
    }
    void fire() {
        busy_ = false;
        raised_at = sc_core::sc_time_stamp();
        if (irq) irq(true);
    }
    sc_core::sc_event start_;
    bool busy_ = false;
};

struct TestBoard {
    explicit TestBoard(const DeviceConfig& cfg)
        : cnn_irq(cfg.cnn_irq),
          bus("bus"),
          flash("flash", cfg.cpu_regions.at(0).base, cfg.cpu_regions.at(0).size, false),
          sram("sram", cfg.cpu_regions.at(1).base, cfg.cpu_regions.at(1).size, true),
          periph("periph", cfg),
          device("device"),
          cpu("cpu", cfg) {
        bus.init_socket.bind(flash.socket);
        bus.init_socket.bind(sram.socket);
        bus.init_socket.bind(periph.socket);
        bus.init_socket.bind(device.socket);
        bus.map(0, "flash", flash.base(), flash.size(), 0);
        bus.map(1, "sram", sram.base(), sram.size(), 0);
        bus.map(2, "peripherals", cfg.peripheral_base, cfg.peripheral_size, 0);
        bus.map(3, "device", DelayedIrqDevice::kAddress, 4, 0);
        cpu.socket.bind(bus.targ_socket);
        bus.name_initiator(0, "cpu");
        bus.set_clock_period(sc_core::sc_time(10, sc_core::SC_NS));

        auto& sim = periph.sim_control();
        sim.on_console = [this](char c) { console += c; };
        sim.on_exit = [this](int code) {
            exit_code = code;
            cpu.halt();
            sc_core::sc_stop();
        };
        sim.on_sleep = [this] { cpu.request_sleep(); };
        sim.on_fault = [this] { cpu.report_unhandled_exception(); };
        cpu.on_error = [](const std::string&) { sc_core::sc_stop(); };
        device.irq = [this](bool level) { cpu.set_irq(cnn_irq, level); };
    }

    unsigned cnn_irq;  // NVIC input the firmware's CNN_IRQn names (configs: cpu.interrupts.cnn)
    AhbBus bus;
    MemoryTarget flash, sram;
    SocPeripherals periph;
    DelayedIrqDevice device;
    CortexM4 cpu;
    std::string console;
    int exit_code = -1;
};

// Config with the bundled MAX78000 description.
inline DeviceConfig board_config() { return load_device_config(default_device_config_path()); }

// Builds one of firmware/examples/NAME into a cache inside the build tree.
inline std::string build_example(const DeviceConfig& cfg, const std::string& name) {
    FirmwareBuilder builder(cfg, ai8x::test::firmware_cache());
    return builder.build(std::string(AI8XSIM_SOURCE_DIR) + "/firmware/examples/" + name).elf_path;
}

}  // namespace ai8x::test
