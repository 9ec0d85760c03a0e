// A core's quantum keeper (the TLM-2.0 loosely-timed pattern of
// tlm_utils::tlm_quantumkeeper, with the same members and meaning) that may
// leave out the wait at a quantum's end when it changes nothing.
//
// At a quantum's end the core waits until SystemC time reaches its own
// instant. When no process has anything scheduled up to and including that
// instant, nobody runs during the wait: it only moves SystemC time and
// resumes the core. `sync_or_defer` then leaves it out and keeps it owed:
// SystemC time stays where it was, the local time (always counted from
// SystemC time, so every instant the core computes is unchanged) keeps the
// owed part, and the next quantum's end is where the wait would have put it.
// The debt is paid (`settle`: one wait to where the left-out waits would have
// brought SystemC time) before anything that could see the difference: a bus
// access whose target may look at SystemC time or schedule a process
// (UnicornCpu::bus_transport), a stop on an error, and every real wait (sync,
// which goes to the core's instant as before). Waits are left out only for
// instants before `defer_until` (the run's time limit, where the simulation
// would have stopped the core mid-wait).
#pragma once

#include <systemc>
#include <tlm>

namespace ai8x {

class CoreQuantumKeeper {
public:
    void inc(const sc_core::sc_time& t) { local_ += t; }
    void set(const sc_core::sc_time& t) { local_ = t; }
    // The core's time ahead of SystemC time (what is owed included): every
    // instant the core computes is sc_time_stamp() + this.
    sc_core::sc_time get_local_time() const { return local_; }
    sc_core::sc_time get_current_time() const { return sc_core::sc_time_stamp() + local_; }
    bool need_sync() const { return sc_core::sc_time_stamp() + local_ >= next_sync_point_; }
    // The instant at which need_sync() starts to hold (SystemC time + local time reaching it).
    sc_core::sc_time sync_point() const { return next_sync_point_; }
    // Waits until SystemC time reaches the core's instant.
    void sync() {
        sc_core::wait(local_);
        reset();
    }
    void reset() {
        local_ = sc_core::SC_ZERO_TIME;
        owed_ = sc_core::SC_ZERO_TIME;
        next_sync_point_ = sc_core::sc_time_stamp() + tlm::tlm_global_quantum::instance().compute_local_quantum();
    }
    // The quantum's end: sync(), or the same books without the wait when no
    // process has anything scheduled up to and including the core's instant.
    // True when it waited.
    bool sync_or_defer() {
        if (defer(sc_core::sc_time_to_pending_activity())) return false;
        sync();
        return true;
    }
    // The books of sync_or_defer without the wait, when it would leave the
    // wait out: `to_activity` is sc_time_to_pending_activity() (passed in by
    // a caller that knows it has not changed). False, nothing changed, when it would wait.
    bool defer(const sc_core::sc_time& to_activity) {
        const sc_core::sc_time at = sc_core::sc_time_stamp() + local_;
        if (!(at < defer_until_ && local_ < to_activity)) return false;
        owed_ = local_;  // SystemC time would now be the core's instant
        next_sync_point_ = at + quantum_after(at);
        return true;
    }
    // Pays what sync_or_defer left out: SystemC time goes where the left-out
    // waits would have put it (nobody else runs meanwhile: nothing was scheduled).
    void settle() {
        if (owed_ == sc_core::SC_ZERO_TIME) return;
        const sc_core::sc_time owed = owed_;
        sc_core::wait(owed);
        local_ -= owed;
        owed_ = sc_core::SC_ZERO_TIME;
    }
    // What the global quantum leaves of the current quantum after the core's
    // local time, had every wait been made (the chunk budget).
    sc_core::sc_time quantum_left() const {
        const sc_core::sc_time synced = sc_core::sc_time_stamp() + owed_;
        const sc_core::sc_time quantum = quantum_after(synced), local = local_ - owed_;
        return quantum > local ? quantum - local : sc_core::SC_ZERO_TIME;
    }
    // Waits may be left out for instants before `until` (default: never).
    void defer_until(const sc_core::sc_time& until) { defer_until_ = until; }

    // What tlm_global_quantum::compute_local_quantum() answers at SystemC
    // time `at` for a global quantum `global`: the time to the next multiple.
    static sc_core::sc_time quantum_at(const sc_core::sc_time& at, const sc_core::sc_time& global) {
        if (global == sc_core::SC_ZERO_TIME) return sc_core::SC_ZERO_TIME;
        const sc_dt::uint64 now = at.value(), q = global.value();
        return sc_core::sc_time::from_value((now / q + 1) * q - now);
    }

private:
    static sc_core::sc_time quantum_after(const sc_core::sc_time& at) {
        if (at == sc_core::sc_time_stamp()) return tlm::tlm_global_quantum::instance().compute_local_quantum();
        return quantum_at(at, tlm::tlm_global_quantum::instance().get());
    }

    sc_core::sc_time local_;
    sc_core::sc_time owed_;  // of local_: waits left out (SystemC time lags the core's last quantum end by this)
    sc_core::sc_time next_sync_point_;
    sc_core::sc_time defer_until_ = sc_core::SC_ZERO_TIME;
};

}  // namespace ai8x
