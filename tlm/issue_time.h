// The initiator's own instant of an access, carried on the payload as an
// ignorable TLM-2.0 extension.
//
// A loosely-timed initiator runs ahead of SystemC time by its quantum keeper's
// offset. The annotated delay a target receives is that offset plus whatever
// the interconnect added on the way (wait states), so a target cannot tell
// from it when the initiator made the access. Targets whose state another
// process reads at its own time (the input FIFOs: the stream controller takes
// a word only once SystemC time has reached the word's arrival) need exactly
// that instant to stamp what they receive. Initiators that do not set the
// extension made the access at sc_time_stamp() (they synchronise first).
#pragma once

#include <systemc>
#include <tlm>

namespace ai8x {

struct IssueTime : tlm::tlm_extension<IssueTime> {
    sc_core::sc_time at;  // SystemC time + the initiator's local offset when it issued the access

    tlm::tlm_extension_base* clone() const override { return new IssueTime(*this); }
    void copy_from(const tlm::tlm_extension_base& other) override { at = static_cast<const IssueTime&>(other).at; }
};

// The instant of `trans` at its initiator: the extension's, else SystemC time.
inline sc_core::sc_time issue_time_of(const tlm::tlm_generic_payload& trans) {
    const IssueTime* t = trans.get_extension<IssueTime>();
    return t ? t->at : sc_core::sc_time_stamp();
}

}  // namespace ai8x
