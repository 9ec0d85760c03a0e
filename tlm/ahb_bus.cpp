#include "tlm/ahb_bus.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <tuple>

#include <spdlog/spdlog.h>

#include "tlm/address_search.h"
#include "tlm/sync_hint.h"

namespace ai8x {

AhbBus::AhbBus(sc_core::sc_module_name name)
    : sc_module(name), targ_socket("targ_socket"), init_socket("init_socket"), clock_period_(10, sc_core::SC_NS) {
    targ_socket.register_b_transport(this, &AhbBus::b_transport);
    targ_socket.register_transport_dbg(this, &AhbBus::transport_dbg);
    targ_socket.register_get_direct_mem_ptr(this, &AhbBus::get_direct_mem_ptr);
    init_socket.register_invalidate_direct_mem_ptr(this, &AhbBus::invalidate_direct_mem_ptr);
}

void AhbBus::map(unsigned port, const std::string& name, uint64_t base, uint64_t size, unsigned wait_states) {
    if (size == 0) throw std::invalid_argument("AhbBus::map: window '" + name + "' has size 0");
    if (!routes_.empty())  // they hold window indices
        throw std::logic_error("AhbBus::map: window '" + name + "' mapped after routes were handed out");
    for (const Window& w : windows_)
        if (base < w.base + w.size && w.base < base + size)
            throw std::invalid_argument(fmt::format("AhbBus::map: window '{}' [0x{:08x}, 0x{:08x}) overlaps '{}'", name,
                                                    base, base + size, w.name));
    const Window w{port, name, base, size, wait_states, clock_period_ * wait_states};
    windows_.insert(std::upper_bound(windows_.begin(), windows_.end(), w,
                                     [](const Window& a, const Window& b) { return a.base < b.base; }),
                    w);
}

void AhbBus::name_initiator(unsigned index, const std::string& name) {
    if (initiator_names_.size() <= index) initiator_names_.resize(index + 1);
    initiator_names_[index] = name;
    event_initiator_ = -1;  // the kept event may hold the old name
}

void AhbBus::add_observer(BusObserver* obs) { observers_.push_back(obs); }

void AhbBus::set_clock_period(sc_core::sc_time t) {
    clock_period_ = t;
    for (Window& w : windows_) w.wait = clock_period_ * w.wait_states;
}

const AhbBus::Window* AhbBus::decode(uint64_t addr, uint64_t len) const {
    const std::size_t i = block_at_or_below(windows_, addr, last_window_);
    if (i == windows_.size()) return nullptr;
    const Window& w = windows_[i];
    if (addr - w.base + len > w.size) return nullptr;
    return &w;
}

std::string AhbBus::initiator_name(int index) const {
    if (index >= 0 && static_cast<size_t>(index) < initiator_names_.size() && !initiator_names_[index].empty())
        return initiator_names_[index];
    return "initiator#" + std::to_string(index);
}

void AhbBus::b_transport(int initiator, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
    const uint64_t addr = trans.get_address();
    const Window* w = decode(addr, std::max(1u, trans.get_data_length()));
    if (w && w->port < static_cast<unsigned>(init_socket.size())) return forward(initiator, *w, nullptr, trans, delay);
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    spdlog::error("bus: {} {} of {} byte(s) at unmapped address 0x{:08x}", initiator_name(initiator),
                  trans.is_write() ? "write" : "read", trans.get_data_length(), addr);
    notify(initiator, trans, delay);
}

void AhbBus::forward(int initiator, const Window& w, DirectTransport* direct, tlm::tlm_generic_payload& trans,
                     sc_core::sc_time& delay) {
    delay += w.wait;
    if (direct)
        direct->direct_transport(trans, delay);
    else
        init_socket[w.port]->b_transport(trans, delay);
    if (trans.is_response_error())
        spdlog::error("bus: {} {} of {} byte(s) at 0x{:08x} ({}) failed: {}", initiator_name(initiator),
                      trans.is_write() ? "write" : "read", trans.get_data_length(), trans.get_address(), w.name,
                      trans.get_response_string());
    notify(initiator, trans, delay);
}

BusRoute* AhbBus::route_to(int initiator, std::size_t window, DirectTransport* direct) {
    for (const auto& r : routes_)
        if (r->leads_to(initiator, window, direct)) return r.get();
    routes_.push_back(std::make_unique<Route>(*this, initiator, window, direct));
    return routes_.back().get();
}

void AhbBus::notify(int initiator, const tlm::tlm_generic_payload& trans, const sc_core::sc_time& delay) {
    if (observers_.empty()) return;
    // Only a notification from inside an observer needs an event of its own.
    std::optional<BusEvent> nested;
    if (notifying_) nested.emplace();
    BusEvent& ev = nested ? *nested : event_;
    if (nested || event_initiator_ != initiator) {
        ev.initiator = initiator_name(initiator);
        if (!nested) event_initiator_ = initiator;
    }
    ev.command = trans.get_command();
    ev.address = trans.get_address();
    ev.length = trans.get_data_length();
    ev.data = 0;
    const unsigned n = std::min(4u, ev.length);
    for (unsigned i = 0; i < n; ++i) ev.data |= uint32_t(trans.get_data_ptr()[i]) << (8 * i);
    ev.status = trans.get_response_status();
    ev.time = simcontext()->time_stamp() + delay;  // sc_time_stamp(), inline
    const bool outer = !notifying_;
    notifying_ = true;
    for (BusObserver* o : observers_) o->on_transaction(ev);
    if (outer) notifying_ = false;
}

unsigned AhbBus::transport_dbg(int, tlm::tlm_generic_payload& trans) {
    const Window* w = decode(trans.get_address(), 1);
    if (!w || w->port >= static_cast<unsigned>(init_socket.size())) return 0;
    // Never let a debug access run past the window into a neighbour's address space.
    const uint64_t room = w->base + w->size - trans.get_address();
    if (trans.get_data_length() > room) trans.set_data_length(static_cast<unsigned>(room));
    return init_socket[w->port]->transport_dbg(trans);
}

bool AhbBus::get_direct_mem_ptr(int initiator, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
    SyncHint* hint = trans.get_extension<SyncHint>();
    const Window* w = decode(trans.get_address(), 1);
    if (!w || w->port >= static_cast<unsigned>(init_socket.size())) {
        // Nobody answers here: no direct access up to the neighbouring windows.
        const auto [lo, hi] = hole_around(trans.get_address());
        dmi.set_start_address(lo);
        dmi.set_end_address(hi);
        if (hint) {
            hint->narrow(lo, hi);
            hint->decoded = false;
        }
        return false;
    }
    const bool granted = init_socket[w->port]->get_direct_mem_ptr(trans, dmi);
    // The initiator may only use the pointer inside this window: clip the range.
    const uint64_t lo = std::max<uint64_t>(dmi.get_start_address(), w->base);
    const uint64_t hi = std::min<uint64_t>(dmi.get_end_address(), w->base + w->size - 1);
    dmi.set_dmi_ptr(dmi.get_dmi_ptr() ? dmi.get_dmi_ptr() + (lo - dmi.get_start_address()) : nullptr);
    dmi.set_start_address(lo);
    dmi.set_end_address(hi);
    dmi.set_read_latency(dmi.get_read_latency() + clock_period_ * w->wait_states);
    dmi.set_write_latency(dmi.get_write_latency() + clock_period_ * w->wait_states);
    if (hint) {
        hint->narrow(w->base, w->base + w->size - 1);
        std::tie(hint->block_start, hint->block_end) = block_of(w->port);
        // The route holds for the window's part the hint describes (the
        // target's direct transport, if any, was declared for that part).
        hint->route = route_to(initiator, std::size_t(w - windows_.data()), hint->direct);
    }
    return granted;
}

std::pair<uint64_t, uint64_t> AhbBus::hole_around(uint64_t address) const {
    uint64_t lo = 0, hi = UINT64_MAX;
    for (const Window& w : windows_) {  // sorted by base
        if (w.base > address) {
            hi = w.base - 1;
            break;
        }
        lo = std::max(lo, w.base + w.size);
    }
    return {lo, hi};
}

std::pair<uint64_t, uint64_t> AhbBus::block_of(unsigned port) const {
    uint64_t lo = UINT64_MAX, hi = 0;
    for (const Window& w : windows_)
        if (w.port == port) {
            lo = std::min(lo, w.base);
            hi = std::max(hi, w.base + w.size - 1);
        }
    return {lo, hi};
}

void AhbBus::invalidate_direct_mem_ptr(int port, sc_dt::uint64 start, sc_dt::uint64 end) {
    for (const Window& w : windows_) {
        if (w.port != static_cast<unsigned>(port)) continue;
        const uint64_t lo = std::max<uint64_t>(start, w.base), hi = std::min<uint64_t>(end, w.base + w.size - 1);
        if (lo > hi) continue;
        for (int i = 0; i < static_cast<int>(targ_socket.size()); ++i)
            targ_socket[i]->invalidate_direct_mem_ptr(lo, hi);
    }
}

}  // namespace ai8x
