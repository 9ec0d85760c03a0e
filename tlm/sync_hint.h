// What an initiator must know about a range of bus addresses besides DMI,
// asked the way DMI is: an ignorable TLM-2.0 extension on a
// get_direct_mem_ptr query for one address. Each hop on the way answers for
// its part and narrows [start, end] to the range its answer holds for, so the
// initiator asks once per range and keeps the answer.
//
// The interconnect says whether anything decodes the address and which block
// of addresses the target there decodes as a whole (its windows and the holes
// between them: the slave's region, which a CPU maps as one I/O range). The
// target says whether its state at these addresses races with SystemC
// processes (the input FIFOs, which the accelerator drains on its own clock):
// a loosely-timed initiator must then make the access at its own instant, not
// up to a quantum ahead of SystemC time. A target that does not know the
// extension leaves it as it is: no synchronisation needed.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <utility>

#include <tlm>

namespace ai8x {

// A target's transport for a range of its addresses: the same function and
// time as its b_transport there, without the decoding (SyncHint::direct).
class DirectTransport {
public:
    virtual void direct_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) = 0;

protected:
    ~DirectTransport() = default;
};

// The interconnect's way to a range of addresses for one initiator: the
// same as the initiator's b_transport through it, without its address
// decoding (SyncHint::route).
class BusRoute {
public:
    virtual void transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) = 0;

protected:
    ~BusRoute() = default;
};

struct SyncHint : tlm::tlm_extension<SyncHint> {
    uint64_t start = 0, end = UINT64_MAX;     // the range this answer holds for
    bool decoded = true;                      // some target answers these addresses
    uint64_t block_start = 0, block_end = 0;  // the target's whole block of addresses (when decoded)
    bool synchronise = false;                 // accesses must happen at the initiator's own instant
    DirectTransport* direct = nullptr;        // the target's shortcut for the range (set by the target)
    BusRoute* route = nullptr;                // the interconnect's shortcut for the range (set by it)

    // The answer holds only inside [lo, hi] too.
    void narrow(uint64_t lo, uint64_t hi) {
        start = std::max(start, lo);
        end = std::min(end, hi);
    }

    tlm::tlm_extension_base* clone() const override { return new SyncHint(*this); }
    void copy_from(const tlm::tlm_extension_base& other) override { *this = static_cast<const SyncHint&>(other); }
};

// A target's answer for `trans`'s address, if the query carries a hint: the
// address ranges `synchronised` ([first, last] each) need synchronisation.
// Inside one of them the hint is narrowed to it and marked; elsewhere it is
// narrowed to the stretch between them around the address.
inline void answer_sync_hint(tlm::tlm_generic_payload& trans,
                             std::initializer_list<std::pair<uint64_t, uint64_t>> synchronised) {
    SyncHint* hint = trans.get_extension<SyncHint>();
    if (!hint) return;
    const uint64_t a = trans.get_address();
    for (const auto& [first, last] : synchronised) {
        if (a >= first && a <= last) {
            hint->narrow(first, last);
            hint->synchronise = true;
            return;
        }
        if (last < a) hint->narrow(last + 1, UINT64_MAX);
        if (first > a) hint->narrow(0, first - 1);
    }
}

}  // namespace ai8x
