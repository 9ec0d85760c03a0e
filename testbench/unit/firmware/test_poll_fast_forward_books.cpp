// PollFastForward (firmware/host/poll_fast_forward.h) books the passes of a
// status-polling loop as executing them would, across the quantum ends whose
// wait the keeper leaves out (CoreQuantumKeeper::defer) and the chunk ends
// where the core only begins the next chunk (Core::restart_chunk). Checked
// against a replay that books the passes one at a time as the core executes
// them (block hook, status read, quantum check, chunk restart): the same
// passes skipped, the same books, local time, quantum budget and chunk end.
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include <systemc>
#include <tlm>

#include "firmware/host/block_books.h"
#include "firmware/host/core_quantum_keeper.h"
#include "firmware/host/poll_fast_forward.h"

using namespace ai8x;
using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_US;

namespace {

constexpr uint32_t kLoop = 0x1000'0100, kLoopBytes = 6;  // the polling block

struct Scenario {
    const char* name;
    BlockCost cost;               // one pass of the block
    uint32_t refill = 2;          // the branch back
    sc_time bus_delay;            // what the bus adds to the status read
    sc_time defer_until;          // the keeper leaves out waits before this
    bool restart_allowed = true;  // the core's main loop would do nothing between chunks
};

// A core's books as UnicornCpu keeps them: a pass books its block's entry and
// price and converts the cycles to local time; a chunk's budget is what is
// left of the quantum, one instruction per cycle.
struct FakeCore : PollFastForward::Core {
    FakeCore(BlockBooks& b, CoreQuantumKeeper& k, const Scenario& s) : books(b), qk(k), scenario(s) {}
    uint64_t chunk_end() const override { return end; }
    void book_pass(uint32_t address, uint32_t bytes) override {
        books.enter(address, scenario.refill);
        books.count(address, bytes, scenario.cost);
        qk.inc(double(books.cycles - books.cycles_accounted) * cycle);
        books.cycles_accounted = books.cycles;
    }
    bool poll_loop(uint32_t, uint32_t) override { return true; }
    bool restart_chunk() override {
        if (!scenario.restart_allowed || qk.need_sync()) return false;
        begin_chunk();
        return true;
    }
    void begin_chunk() {
        const sc_time left = qk.quantum_left();
        const uint64_t budget = left > sc_core::SC_ZERO_TIME ? std::max<uint64_t>(1, uint64_t(left / cycle)) : 1;
        end = books.instret + budget;
    }
    BlockBooks& books;
    CoreQuantumKeeper& qk;
    const Scenario& scenario;
    sc_time cycle{10, SC_NS};
    uint64_t end = 0;
};

// Where a run of passes stopped: before the pass that must run for real.
struct Stop {
    BlockBooks books;
    sc_time local, left;
    bool need_sync = false;
    uint64_t chunk_end = 0, passes = 0;
};

Stop stop_of(const FakeCore& core, uint64_t passes) {
    return {core.books, core.qk.get_local_time(), core.qk.quantum_left(), core.qk.need_sync(), core.end, passes};
}

// The first pass, run for real: its status read made without synchronising.
void first_pass(FakeCore& core, const Scenario& s) {
    core.qk.defer_until(s.defer_until);
    core.qk.reset();
    core.begin_chunk();
    core.book_pass(kLoop, kLoopBytes);
    core.qk.inc(s.bus_delay);
}

// Executing every pass: the block hook (the chunk's end: the main loop begins
// the next chunk), the read (stops when an activity is due by then), the
// bus's delay, the quantum check (a wait that cannot be left out stops).
Stop replay_passes(const Scenario& s, sc_time next_activity) {
    BlockBooks books;
    CoreQuantumKeeper qk;
    FakeCore core(books, qk, s);
    first_pass(core, s);
    for (uint64_t passes = 0;; ++passes) {
        if (books.instret >= core.end) {
            if (!s.restart_allowed || qk.need_sync()) return stop_of(core, passes);
            core.begin_chunk();
        }
        const BlockBooks kept = books;
        const sc_time before = qk.get_local_time();
        core.book_pass(kLoop, kLoopBytes);
        const sc_time at_read = qk.get_local_time();
        qk.inc(s.bus_delay);
        if (!(at_read < next_activity) || (qk.need_sync() && !qk.defer(next_activity))) {
            books = kept;
            qk.set(before);
            return stop_of(core, passes);
        }
    }
}

Stop fast_forwarded(const Scenario& s) {
    BlockBooks books;
    CoreQuantumKeeper qk;
    FakeCore core(books, qk, s);
    PollFastForward ff(core, books, qk);
    first_pass(core, s);
    ff.access_begins();
    ff.unsynchronised_read(s.bus_delay);
    ff.before_block(kLoop, kLoopBytes);
    return stop_of(core, ff.skipped());
}

// Runs every scenario at SystemC time 0 with one activity scheduled at `other_at`.
SC_MODULE(PollScenarios) {
    std::vector<Scenario> scenarios;
    std::vector<std::pair<Stop, Stop>> results;  // replay, fast-forward
    sc_time other_at;
    sc_core::sc_event other;

    SC_CTOR(PollScenarios) {
        SC_THREAD(run);
        SC_METHOD(other_process);
        sensitive << other;
        dont_initialize();
    }
    void other_process() {}
    void run() {
        other.notify(other_at);
        const sc_time next_activity = sc_core::sc_time_to_pending_activity();
        for (const Scenario& s : scenarios) results.emplace_back(replay_passes(s, next_activity), fast_forwarded(s));
    }
};

BlockCost pass_cost(uint32_t instructions, uint32_t cycles) {
    BlockCost c;
    c.instructions = instructions;
    c.cycles[0] = c.cycles[1] = cycles;
    return c;
}

}  // namespace

TEST_CASE("poll fast-forward books passes across deferred quantum ends and chunk restarts as executing them",
          "[cpu][poll]") {
    tlm::tlm_global_quantum::instance().set(sc_time(1, SC_US));
    const sc_time limit(1, sc_core::SC_MS);
    PollScenarios run("poll_scenarios");
    run.other_at = sc_time(37300, SC_NS) + sc_time::from_value(7);  // off the grid
    run.scenarios = {
        {"deferred quantum ends", pass_cost(3, 7), 2, sc_time(20, SC_NS), limit},
        {"odd costs", pass_cost(2, 5), 3, sc_time(7, SC_NS) + sc_time::from_value(3), limit},
        {"no bus delay", pass_cost(4, 4), 1, sc_core::SC_ZERO_TIME, limit},
        {"waits not left out", pass_cost(3, 7), 2, sc_time(20, SC_NS), sc_core::SC_ZERO_TIME},
        {"chunk restarts refused", pass_cost(3, 7), 2, sc_time(20, SC_NS), limit, false},
    };
    sc_core::sc_start(sc_time(1, SC_US));
    REQUIRE(run.results.size() == run.scenarios.size());
    for (std::size_t i = 0; i < run.results.size(); ++i) {
        const Stop &want = run.results[i].first, &got = run.results[i].second;
        INFO(run.scenarios[i].name << ": replay " << want.passes << " passes, fast-forward " << got.passes);
        CHECK(got.passes == want.passes);
        CHECK(got.books.instret == want.books.instret);
        CHECK(got.books.cycles == want.books.cycles);
        CHECK(got.books.block_base == want.books.block_base);
        CHECK(got.books.block_cycles_base == want.books.block_cycles_base);
        CHECK(got.local == want.local);
        CHECK(got.left == want.left);
        CHECK(got.need_sync == want.need_sync);
        CHECK(got.chunk_end == want.chunk_end);
    }
    // Not vacuous: with waits left out and chunks restarted the passes run up
    // to the activity (37 quanta, 338 passes), otherwise only to the first
    // quantum's end (9 passes) or chunk's end (about 30: the budget counts
    // one instruction a cycle, a pass takes 9 cycles for 3 instructions).
    const auto passes = [&](std::size_t i) { return run.results[i].first.passes; };
    CHECK(passes(0) > 300);
    CHECK(passes(3) < 15);
    CHECK(passes(4) < 40);
}
