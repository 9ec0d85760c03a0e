// The AHB interconnect: routes each transaction by address to the target bound
// at one of its initiator ports, adds the window's wait states as annotated
// delay, reports every completed transaction to observers (trace recorder,
// statistics) and answers addresses nobody decodes with an address error.
// DMI queries, and the SyncHint they may carry, are answered the same way;
// a query with a SyncHint also gets a route (BusRoute) to the window for the
// asking initiator, which skips the decoding.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include "tlm/bus_observer.h"
#include "tlm/sync_hint.h"

namespace ai8x {

class AhbBus : public sc_core::sc_module {
public:
    tlm_utils::multi_passthrough_target_socket<AhbBus, 32> targ_socket;     // initiators bind here
    tlm_utils::multi_passthrough_initiator_socket<AhbBus, 32> init_socket;  // targets bind here

    explicit AhbBus(sc_core::sc_module_name name);

    // Address window [base, base+size) served by the target bound at init_socket
    // index `port` (bind order). A port may have several windows; windows must
    // not overlap. Targets receive absolute addresses.
    void map(unsigned port, const std::string& name, uint64_t base, uint64_t size, unsigned wait_states);
    void name_initiator(unsigned index, const std::string& name);  // targ_socket bind order
    void add_observer(BusObserver* obs);
    void set_clock_period(sc_core::sc_time t);  // wait states are counted in this clock

private:
    struct Window {
        unsigned port;
        std::string name;
        uint64_t base, size;
        unsigned wait_states;
        sc_core::sc_time wait;  // clock_period_ * wait_states, added to every access's delay
    };

    // One initiator's way to one window (and the target's direct transport
    // there, if it declared one): b_transport without the decoding.
    class Route final : public BusRoute {
    public:
        Route(AhbBus& bus, int initiator, std::size_t window, DirectTransport* direct)
            : bus_(bus), initiator_(initiator), window_(window), direct_(direct) {}
        void transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) override {
            bus_.forward(initiator_, bus_.windows_[window_], direct_, trans, delay);
        }
        bool leads_to(int initiator, std::size_t window, DirectTransport* direct) const {
            return initiator_ == initiator && window_ == window && direct_ == direct;
        }

    private:
        AhbBus& bus_;
        int initiator_;
        std::size_t window_;
        DirectTransport* direct_;
    };

    void b_transport(int initiator, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    // What every access to window `w` does after the decoding: its wait
    // states, the target's transport (`direct`, else through the socket), the
    // error report and the observers.
    void forward(int initiator, const Window& w, DirectTransport* direct, tlm::tlm_generic_payload& trans,
                 sc_core::sc_time& delay);
    BusRoute* route_to(int initiator, std::size_t window, DirectTransport* direct);
    unsigned transport_dbg(int initiator, tlm::tlm_generic_payload& trans);
    // DMI as the target grants it, clipped to the window; a query carrying a
    // SyncHint (tlm/sync_hint.h) also learns the range's window or hole and
    // the whole block of the target there.
    bool get_direct_mem_ptr(int initiator, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
    void invalidate_direct_mem_ptr(int port, sc_dt::uint64 start, sc_dt::uint64 end);

    // Window holding every byte of [addr, addr+len), or nullptr.
    const Window* decode(uint64_t addr, uint64_t len) const;
    // [first, last] of the undecoded stretch holding `address`: from the end of
    // the window below to the window above.
    std::pair<uint64_t, uint64_t> hole_around(uint64_t address) const;
    // [first, last] of every window of `port` together: the target's block.
    std::pair<uint64_t, uint64_t> block_of(unsigned port) const;
    std::string initiator_name(int index) const;
    void notify(int initiator, const tlm::tlm_generic_payload& trans, const sc_core::sc_time& delay);

    std::vector<Window> windows_;  // sorted by base
    // Index into windows_ of the last window decode found (the firmware's
    // accesses come in runs to one window, e.g. a FIFO's status and data
    // registers): tried first, and taken only when the search would find it too.
    mutable std::size_t last_window_ = 0;
    std::vector<std::unique_ptr<Route>> routes_;  // handed out with SyncHint answers
    std::vector<std::string> initiator_names_;
    std::vector<BusObserver*> observers_;
    sc_core::sc_time clock_period_;
    // The event handed to the observers, kept between accesses so that its
    // initiator name is copied only when the initiator changes (every access
    // is observed: the inference timer watches the bus). A notification made
    // from inside an observer uses an event of its own.
    BusEvent event_;
    int event_initiator_ = -1;  // whose name event_.initiator holds (-1: none)
    bool notifying_ = false;
};

}  // namespace ai8x
