// CoreQuantumKeeper (firmware/host/core_quantum_keeper.h): a quantum's end
// with nothing scheduled up to the core's instant leaves out its wait, and
// everything the core computes stays as if it had waited: the instants of
// the quantum ends, the chunk budgets (quantum_left), and SystemC time once
// the debt is paid.
#include <catch2/catch.hpp>

#include <vector>

#include <systemc>
#include <tlm>

#include "firmware/host/core_quantum_keeper.h"

using namespace ai8x;
using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_US;

namespace {

// What one quantum's end looked like to the core.
struct QuantumEnd {
    sc_time instant;      // the core's instant (SystemC time + local time)
    sc_time systemc;      // SystemC time after sync_or_defer
    sc_time left;         // quantum_left() after it
    bool waited = false;  // sync_or_defer really waited
};

// A core that runs `steps` steps of `step` each, ending quanta as
// CortexM4::run does, and a process with one activity at `other_at`.
SC_MODULE(QuantumCores) {
    CoreQuantumKeeper qk;
    sc_time step, other_at, limit;
    int steps = 0;
    bool defer = true;
    std::vector<QuantumEnd> ends;
    std::vector<sc_time> lefts;           // quantum_left() before every step
    sc_time settled_at, settled_instant;  // SystemC time after settle(), the core's instant before it
    sc_time instant_after_settle;
    sc_core::sc_event other;

    SC_CTOR(QuantumCores) {
        SC_THREAD(core);
        SC_METHOD(other_process);
        sensitive << other;
        dont_initialize();
    }
    void other_process() {}
    void core() {
        other.notify(other_at);
        if (defer) qk.defer_until(limit);
        qk.reset();
        for (int i = 0; i < steps; ++i) {
            lefts.push_back(qk.quantum_left());
            qk.inc(step);
            if (!qk.need_sync()) continue;
            const sc_time instant = qk.get_current_time();
            const bool waited = qk.sync_or_defer();
            ends.push_back({instant, sc_core::sc_time_stamp(), qk.quantum_left(), waited});
        }
        settled_instant = qk.get_current_time();
        qk.settle();
        settled_at = sc_core::sc_time_stamp();
        instant_after_settle = qk.get_current_time();
    }
};

// The plain tlm_quantumkeeper's books for the same steps, in integers: every
// quantum's end waits, so SystemC time is the instant of the last one.
struct KeeperReplay {
    std::vector<uint64_t> instants, lefts;
};
KeeperReplay replay_keeper(uint64_t step, int steps, uint64_t g) {
    KeeperReplay r;
    uint64_t sc = 0, local = 0, next = g;
    for (int i = 0; i < steps; ++i) {
        const uint64_t quantum = (sc / g + 1) * g - sc;
        r.lefts.push_back(quantum > local ? quantum - local : 0);
        local += step;
        if (sc + local < next) continue;
        r.instants.push_back(sc + local);
        sc += local;
        local = 0;
        next = sc + ((sc / g + 1) * g - sc);
    }
    return r;
}

// Runs the cores once (one elaboration per test process) and checks them
// against the replay; returns them for the case's own checks.
QuantumCores& run_keepers_against_replay(bool defer) {
    tlm::tlm_global_quantum::instance().set(sc_time(1, SC_US));
    static QuantumCores cores("cores");
    cores.step = sc_time(370, SC_NS) + sc_time::from_value(3);  // off the grid, odd picoseconds
    cores.steps = 40;
    cores.other_at = sc_time(5500, SC_NS);
    cores.limit = sc_time(1, sc_core::SC_MS);
    cores.defer = defer;
    sc_core::sc_start(sc_time(1, sc_core::SC_MS));
    const KeeperReplay r = replay_keeper(cores.step.value(), cores.steps, sc_time(1, SC_US).value());
    REQUIRE(cores.ends.size() == r.instants.size());
    for (std::size_t i = 0; i < r.instants.size(); ++i) CHECK(cores.ends[i].instant.value() == r.instants[i]);
    REQUIRE(cores.lefts.size() == r.lefts.size());
    for (std::size_t i = 0; i < r.lefts.size(); ++i) CHECK(cores.lefts[i].value() == r.lefts[i]);
    return cores;
}

}  // namespace

TEST_CASE("quantum_after answers as the global quantum does at every instant", "[cpu][quantum]") {
    // Instants on and off the 1 us grid, with odd picoseconds.
    const sc_time g(1, SC_US);
    for (uint64_t ps : {uint64_t{0}, uint64_t{1}, uint64_t{999999}, uint64_t{1000000}, uint64_t{1000001},
                        uint64_t{2345678}, uint64_t{7000000}, uint64_t{123456789012}})
        CHECK(CoreQuantumKeeper::quantum_at(sc_time::from_value(ps), g) ==
              sc_time::from_value((ps / g.value() + 1) * g.value() - ps));
    CHECK(CoreQuantumKeeper::quantum_at(sc_time(5, SC_NS), sc_core::SC_ZERO_TIME) == sc_core::SC_ZERO_TIME);
}

TEST_CASE("quantum ends with plain waits follow the replay of tlm_quantumkeeper", "[cpu][quantum]") {
    QuantumCores& cores = run_keepers_against_replay(false);
    for (const QuantumEnd& e : cores.ends) {
        CHECK(e.waited);
        CHECK(e.systemc == e.instant);
    }
}

TEST_CASE("quantum ends with nothing scheduled are owed: same instants and chunk budgets", "[cpu][quantum]") {
    QuantumCores& cores = run_keepers_against_replay(true);
    // Before the other process's activity nobody runs: the waits are left
    // out and SystemC time stays at 0; the first quantum end at or after it
    // waits, to the core's instant, paying what was owed.
    bool reached = false;
    for (const QuantumEnd& e : cores.ends) {
        INFO("quantum end at " << e.instant);
        if (e.instant < cores.other_at) {
            CHECK_FALSE(e.waited);
            CHECK(e.systemc == sc_core::SC_ZERO_TIME);
        } else if (!reached) {
            reached = true;
            CHECK(e.waited);
            CHECK(e.systemc == e.instant);
        }
    }
    CHECK(reached);
    // Later ends have nothing scheduled again; settle() pays the last one's
    // debt: SystemC time where its wait would have put it, the core's instant unchanged.
    CHECK_FALSE(cores.ends.back().waited);
    CHECK(cores.settled_at == cores.ends.back().instant);
    CHECK(cores.instant_after_settle == cores.settled_instant);
}
