// The virtual MAX78000 board: AHB bus, CPU flash and SRAM, the SoC
// peripherals (with the simulation-control device), the CNN accelerator, and
// optionally the Cortex-M4. One per process (SystemC elaborates one design).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>

#include "firmware/host/camera/camera_interface.h"
#include "firmware/host/core_inputs.h"
#include "firmware/host/cortex_m4.h"
#include "firmware/host/riscv_core.h"
#include "firmware/host/rtl_testbench_control.h"
#include "firmware/host/soc_peripherals.h"
#include "model/accelerator.h"
#include "tlm/ahb_bus.h"
#include "tlm/device_config.h"
#include "tlm/memory_target.h"
#include "tlm/wire.h"

namespace ai8x {

class Platform {
public:
    explicit Platform(const DeviceConfig& cfg);

    AhbBus& bus() { return bus_; }
    Accelerator& accelerator() { return accel_; }
    SocPeripherals& peripherals() { return periph_; }
    const DeviceConfig& config() const { return cfg_; }

    // Creates the CPU and binds it to the bus (call once, before sc_start).
    // The CNN interrupt and the sleep/fault services are wired to it.
    CortexM4& add_cpu();
    CortexM4* cpu() { return cpu_.get(); }
    // Creates the RISC-V core (call after add_cpu, before sc_start): held in
    // reset until the Arm releases it; the CNN interrupt reaches it too, and
    // its SEMA IRQ0 write interrupts the Arm (docs/riscv.md).
    RiscvCore& add_riscv();
    RiscvCore* riscv() { return riscv_.get(); }

    // Creates the RTL testbench's control block (the `sim` registers of an
    // RTL-simulation folder's programs, docs/rtl-flow.md) in the peripheral
    // window (call once, before sc_start).
    RtlTestbenchControl& add_rtl_testbench();
    RtlTestbenchControl* rtl_testbench() { return rtl_testbench_.get(); }
    // The camera interface (PCIF), when the description has one: on the SoC
    // interconnect from the start; its stream starts at the testbench's trig
    // once add_rtl_testbench() made it, else when capture is first enabled.
    CameraInterface* camera() { return camera_.get(); }
    // The CNN's power and clock state, on both ends of the wires (the SoC's
    // GCFR and GCR, the accelerator's power control): the SoC's reset, where
    // add_cpu() puts it. Without a CPU (replaying a trace of the accelerator's
    // windows) the board starts as the firmware's cnn_enable() leaves it.
    void assume_soc_reset();

    // The CNN interrupt (the accelerator's irq output) to one more reader: a
    // port of a module (the trace player's), or an instrument that is no module,
    // through a listener module named `who` ("inference_timer"). Readers act on
    // each edge in the order they were bound, after the cores' inputs. Call
    // before sc_start.
    void bind_cnn_irq(WireIn<bool>& reader);
    void listen_cnn_irq(const std::string& who, std::function<void(bool)> on_change);

    // One wire of the board: its name, the port that drives it and the ports
    // that read it (hierarchical SystemC names: "soc.gcr.cnn_clock_hz").
    struct WireLink {
        std::string wire, writer;
        std::vector<std::string> readers;
        const sc_core::sc_object* channel = nullptr;  // the Wire itself
    };
    // Every wire the board has bound so far, in the order it bound them
    // (`ai8xsim info` prints them as the wiring list).
    const std::vector<WireLink>& wiring() const { return wiring_; }

    // Any other bus initiator (e.g. the trace player), named for bus messages.
    void bind_initiator(tlm::tlm_initiator_socket<32>& s, const std::string& name);

private:
    // The SoC's clock, power and interrupt outputs to the accelerator and the
    // cores, as wires (app/board_wiring.cpp; `ai8xsim info` lists them).
    void connect_soc();
    void attach_camera();
    void connect_cpu_interrupts();
    void connect_riscv_interrupts();
    void assume_cnn_enabled();
    // A new wire `name` driven by `writer`, recorded in the wiring list; then
    // `reader` bound to it (and recorded as its reader).
    template <class T>
    Wire<T>& link(WireOut<T>& writer, const std::string& name);
    template <class T>
    void link(WireOut<T>& writer, const std::string& name, WireIn<T>& reader);
    template <class T>
    void add_reader(Wire<T>& wire, WireIn<T>& reader);

    DeviceConfig cfg_;  // own copy: modules keep references to it
    AhbBus bus_;
    std::vector<std::unique_ptr<MemoryTarget>> memories_;
    SocPeripherals periph_;
    Accelerator accel_;
    std::unique_ptr<CortexM4> cpu_;
    std::unique_ptr<RiscvCore> riscv_;
    std::unique_ptr<RtlTestbenchControl> rtl_testbench_;
    std::unique_ptr<CameraInterface> camera_;
    WireSet wires_;
    CoreInputs riscv_in_;                     // the RISC-V core's clock (GCR PCLKDIS1.CPU1)
    std::unique_ptr<CoreInputs> nvic_;        // the Cortex-M4's interrupt inputs (add_cpu)
    std::unique_ptr<CoreInputs> riscv_intc_;  // the RISC-V core's interrupt inputs (add_riscv)
    Wire<bool>* cnn_irq_ = nullptr;           // the accelerator's interrupt (connect_soc)
    std::vector<std::unique_ptr<WireListener<bool>>> listeners_;
    unsigned initiators_ = 0;
    std::vector<WireLink> wiring_;
};

}  // namespace ai8x
