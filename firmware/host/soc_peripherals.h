// The SoC side of the board (`soc`): the peripheral modules generated firmware
// touches, each built from the device description (configs: peripherals;
// tlm/peripheral.h), and the interconnect that routes the CPU's peripheral
// window to them. An address no peripheral decodes is answered with an address
// error (the CPU takes a bus fault there).
//
// Every described peripheral gets a module: those with behaviour are the
// classes below (GCR, GCFR, FCR, SEMA, GPIO, SIMCTL); any other kind (PWRSEQ,
// or one a user adds to the description) is a plain Peripheral whose registers
// store what is written. A peripheral built elsewhere (the accelerator's fast
// FIFO, the RTL testbench's block, the camera interface: app/platform.h) is
// attached to the same interconnect.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "firmware/host/fcr.h"
#include "firmware/host/gcfr.h"
#include "firmware/host/gcr.h"
#include "firmware/host/sim_control.h"
#include "tlm/device_config.h"
#include "tlm/peripheral.h"

namespace ai8x {

class SocPeripherals : public sc_core::sc_module {
public:
    // The CPU's peripheral window (cpu.peripherals); addresses are bus addresses.
    tlm_utils::simple_target_socket<SocPeripherals, 32> socket;

    SocPeripherals(sc_core::sc_module_name name, const DeviceConfig& cfg);
    ~SocPeripherals() override;

    Gcr& gcr() { return *gcr_; }
    Gcfr& gcfr() { return *gcfr_; }
    Fcr& fcr() { return *fcr_; }
    SimControl& sim_control() { return *simctl_; }
    // The module of instance `instance` ("FCR", "GPIO2"), or nullptr.
    Peripheral* find(const std::string& instance) const;
    // Every peripheral on the interconnect, in address order once the simulation runs.
    const std::vector<Peripheral*>& peripherals() const { return peripherals_; }

    // Puts a described peripheral made elsewhere (the accelerator's fast FIFO)
    // on this interconnect; before the simulation starts. Until then its window
    // answers with address errors.
    void attach(Peripheral& p);

    const char* kind() const override { return "ai8x_soc"; }

private:
    using Link = tlm_utils::simple_initiator_socket_optional<SocPeripherals, 32>;
    // One described instance: its window and, once made or attached, its module.
    struct Slot {
        const PeripheralInstance* instance;
        uint64_t size;
        Peripheral* module = nullptr;
        std::unique_ptr<Link> link;
    };
    template <class T, class... Args>
    T* make(const std::string& instance, Args&&... args);
    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    unsigned transport_dbg(tlm::tlm_generic_payload& trans);
    // No direct memory access; a query's SyncHint (tlm/sync_hint.h) is
    // answered by the peripheral at the address (the fast FIFO's races).
    bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
    // The slot whose module decodes [address, address + size), or nullptr.
    Slot* decode(uint64_t address, unsigned size);

    const DeviceConfig& cfg_;
    std::vector<std::unique_ptr<Peripheral>> owned_;
    std::vector<Peripheral*> peripherals_;
    std::vector<Slot> slots_;
    Gcr* gcr_ = nullptr;
    Gcfr* gcfr_ = nullptr;
    Fcr* fcr_ = nullptr;
    SimControl* simctl_ = nullptr;
};

}  // namespace ai8x
