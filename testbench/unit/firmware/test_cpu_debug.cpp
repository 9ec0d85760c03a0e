// The CPU's debugger interface (cortex_m4.h "Debugger", cpu_debug.h) driven
// by a scripted debugger, no GDB or socket: breakpoints inside a block, single
// steps, and that neither changes the instruction count or the time of a loop
// whose length is known by construction (firmware/examples/counted_loop:
// 1 + 100 x 7 + 1 = 702 instructions).
#include <catch2/catch.hpp>

#include <functional>
#include <vector>

#include "firmware/host/cpu_debug.h"
#include "testbench/unit/firmware/test_board.h"
#include "testbench/unit/sim_kernel.h"

using namespace ai8x;
using namespace ai8x::test;

namespace {

constexpr int kPc = 15;
constexpr int kLr = 14;

// Records every stop and lets the test decide what the CPU does next.
struct ScriptedDebugger : CpuDebugger {
    explicit ScriptedDebugger(CortexM4& c) : cpu(c) {}
    void stopped(const DebugStop& why) override {
        stops.push_back(why);
        pcs.push_back(cpu.debug_register(kPc));
        if (stops.size() > kMaxStops) {  // a CPU that never gets past a stop fails the test, not hangs it
            cpu.halt();
            sc_core::sc_stop();
            return;
        }
        next(why);
    }
    static constexpr size_t kMaxStops = 5000;
    bool interrupt_requested() override { return false; }

    CortexM4& cpu;
    std::function<void(const DebugStop&)> next;
    std::vector<DebugStop> stops;
    std::vector<uint32_t> pcs;
};

struct LoopCall {
    int calls = 0;
    sc_core::sc_time duration;
};

// `entered` is taken after the entry instruction and `returned` after the
// last, so the call spans 701 instructions' cycles (the loop reads no memory)
// and 100 taken branches' pipeline refills (99 loop-backs, the return).
double expected_call_seconds(const DeviceConfig& cfg) {
    return (701 * double(cfg.cpu_timing.cycles_per_instruction) + 100 * double(cfg.cpu_timing.branch_refill_cycles)) /
           cfg.clocks.cpu_hz;
}

}  // namespace

TEST_CASE("a breakpoint inside a block stops on every pass and changes neither count nor time", "[cpu][debug]") {
    static DeviceConfig cfg = board_config();
    TestBoard board(cfg);
    board.cpu.load_elf(build_example(cfg, "counted_loop"));
    const uint32_t entry = board.cpu.image()->symbol_address("counted_loop") & ~1u;
    // movs (2 bytes), then the loop: add.w (4 bytes) at entry+2, cmp at entry+6
    // — in the middle of the loop's block.
    const uint32_t cmp = entry + 6;
    LoopCall call;
    board.cpu.observe_calls(entry, [&](sc_core::sc_time in, sc_core::sc_time out) {
        ++call.calls;
        call.duration = out - in;
    });
    ScriptedDebugger dbg(board.cpu);
    dbg.next = [&](const DebugStop& why) {
        if (why.kind == DebugStop::kReset) board.cpu.add_breakpoint(cmp);
        board.cpu.resume(false);
    };
    board.cpu.attach_debugger(&dbg);
    sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_MS));

    REQUIRE_FALSE(board.cpu.error());
    CHECK(board.exit_code == 0);
    REQUIRE(dbg.stops.size() == 101);  // reset, then one stop per loop iteration
    CHECK(dbg.stops[0].kind == DebugStop::kReset);
    for (size_t i = 1; i < dbg.stops.size(); ++i) {
        CHECK(dbg.stops[i].kind == DebugStop::kBreakpoint);
        CHECK(dbg.pcs[i] == cmp);
    }
    REQUIRE(call.calls == 1);
    const double cycle_s = 1.0 / cfg.clocks.cpu_hz;
    CHECK(call.duration.to_seconds() == Approx(expected_call_seconds(cfg)).margin(cycle_s / 2));
}

TEST_CASE("single steps advance one instruction at a time and end the loop call at its return address",
          "[cpu][debug]") {
    static DeviceConfig cfg = board_config();
    TestBoard board(cfg);
    board.cpu.load_elf(build_example(cfg, "counted_loop"));
    const uint32_t entry = board.cpu.image()->symbol_address("counted_loop") & ~1u;
    LoopCall call;
    board.cpu.observe_calls(entry, [&](sc_core::sc_time in, sc_core::sc_time out) {
        ++call.calls;
        call.duration = out - in;
    });
    ScriptedDebugger dbg(board.cpu);
    uint32_t return_address = 0;
    std::vector<uint32_t> step_pcs;  // pc after each step
    constexpr size_t kMaxSteps = 1000;
    dbg.next = [&](const DebugStop& why) {
        if (why.kind == DebugStop::kReset) {
            board.cpu.add_breakpoint(entry);
            board.cpu.resume(false);
            return;
        }
        if (why.kind == DebugStop::kBreakpoint) {
            board.cpu.remove_breakpoint(entry);
            return_address = board.cpu.debug_register(kLr) & ~1u;
        } else {
            step_pcs.push_back(board.cpu.debug_register(kPc));
        }
        const bool done = !step_pcs.empty() && (step_pcs.back() == return_address || step_pcs.size() >= kMaxSteps);
        board.cpu.resume(!done);
    };
    board.cpu.attach_debugger(&dbg);
    sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_MS));

    REQUIRE_FALSE(board.cpu.error());
    CHECK(board.exit_code == 0);
    REQUIRE(step_pcs.size() >= 3);
    // movs (2 bytes), add.w (4), cmp (2): one instruction per step. (Then
    // comes the IT block, whose condition-failed instruction Unicorn runs no
    // hook for, so it is stepped over together with the one before it.)
    CHECK(step_pcs[0] == entry + 2);
    CHECK(step_pcs[1] == entry + 6);
    CHECK(step_pcs[2] == entry + 8);
    // The last step leaves the loop's bx lr (Thumb encoding 0x4770) for the caller.
    REQUIRE(step_pcs.size() < kMaxSteps);
    CHECK(step_pcs.back() == return_address);
    uint8_t insn[2] = {};
    REQUIRE(board.cpu.debug_read(step_pcs[step_pcs.size() - 2], insn, 2));
    CHECK((insn[0] | insn[1] << 8) == 0x4770);
    // Stepping changed neither the instruction count nor the time of the call.
    REQUIRE(call.calls == 1);
    const double cycle_s = 1.0 / cfg.clocks.cpu_hz;
    CHECK(call.duration.to_seconds() == Approx(expected_call_seconds(cfg)).margin(cycle_s / 2));
}

namespace {

// Runs firmware/examples/irq_wait with one watchpoint set at reset; returns
// the stops after the reset one.
std::vector<DebugStop> watch_irq_wait(const std::function<uint32_t(const CortexM4&)>& address, uint32_t size,
                                      WatchKind kind, int& exit_code) {
    static DeviceConfig cfg = board_config();
    TestBoard board(cfg);
    board.cpu.load_elf(build_example(cfg, "irq_wait"));
    ScriptedDebugger dbg(board.cpu);
    dbg.next = [&](const DebugStop& why) {
        if (why.kind == DebugStop::kReset) board.cpu.add_watchpoint(address(board.cpu), size, kind);
        board.cpu.resume(false);
    };
    board.cpu.attach_debugger(&dbg);
    sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_MS));
    REQUIRE_FALSE(board.cpu.error());
    exit_code = board.exit_code;
    REQUIRE(!dbg.stops.empty());
    CHECK(dbg.stops[0].kind == DebugStop::kReset);
    return {dbg.stops.begin() + 1, dbg.stops.end()};
}

}  // namespace

TEST_CASE("a write watchpoint on a device register (bus path) stops at each firmware write", "[cpu][debug]") {
    int exit_code = -1;
    // irq_roundtrip.h writes the device's control word twice: 1 to start it
    // (main), 0 to acknowledge (interrupt handler).
    const auto stops = watch_irq_wait([](const CortexM4&) { return uint32_t(DelayedIrqDevice::kAddress); }, 4,
                                      WatchKind::kWrite, exit_code);
    CHECK(exit_code == 0);
    REQUIRE(stops.size() == 2);
    for (const auto& s : stops) {
        CHECK(s.kind == DebugStop::kWatchpoint);
        CHECK(s.watch == WatchKind::kWrite);
        CHECK(s.data_address == DelayedIrqDevice::kAddress);
    }
}

TEST_CASE("a write watchpoint on an SRAM variable stops at each of its writes", "[cpu][debug]") {
    int exit_code = -1;
    uint32_t irq_count = 0;
    // irq_count (.bss) is written twice: zeroed by the startup code, then
    // incremented once by the interrupt handler.
    const auto stops =
        watch_irq_wait([&](const CortexM4& cpu) { return irq_count = cpu.image()->symbol_address("irq_count"); }, 4,
                       WatchKind::kWrite, exit_code);
    CHECK(exit_code == 0);
    REQUIRE(stops.size() == 2);
    for (const auto& s : stops) {
        CHECK(s.kind == DebugStop::kWatchpoint);
        CHECK(s.data_address == irq_count);
    }
}

namespace {

// What a run of firmware/examples/status_poll did: the passes of its busy
// loop that read the device and those the CPU counted without executing.
struct StatusPollRun {
    uint64_t reads = 0, skipped = 0, loop_stops = 0, instructions = 0;
    sc_core::sc_time end;
    int exit_code = -1;
};

// Runs status_poll on a SystemC kernel of its own (so that one test can
// compare several runs) against a device busy for 20 us that declares its
// register synchronised, as the FIFO status is; with `breakpoint`, a
// debugger stops at the loop's first instruction on every pass.
StatusPollRun run_status_poll(bool fast_forward, bool breakpoint) {
    static DeviceConfig cfg = board_config();
    static const std::string elf = build_example(cfg, "status_poll");
    StatusPollRun r;
    {
        test::OwnKernel kernel;
        TestBoard board(cfg);
        board.device.declares_sync = true;
        board.device.delay = sc_core::sc_time(20, sc_core::SC_US);
        board.cpu.load_elf(elf);
        board.cpu.poll_fast_forward().enabled = fast_forward;
        const uint32_t loop = board.cpu.image()->symbol_address("status_loop") & ~1u;
        ScriptedDebugger dbg(board.cpu);
        dbg.next = [&](const DebugStop& why) {
            if (why.kind == DebugStop::kReset) board.cpu.add_breakpoint(loop);
            if (why.kind == DebugStop::kBreakpoint && board.cpu.debug_register(kPc) == loop) ++r.loop_stops;
            board.cpu.resume(false);
        };
        if (breakpoint) board.cpu.attach_debugger(&dbg);
        sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_MS));
        REQUIRE_FALSE(board.cpu.error());
        r.reads = board.device.reads;
        r.skipped = board.cpu.poll_fast_forward().skipped();
        r.instructions = board.cpu.instructions();
        r.end = sc_core::sc_time_stamp();
        r.exit_code = board.exit_code;
    }
    return r;
}

}  // namespace

TEST_CASE("under a debugger a breakpoint inside a status-polling loop stops on every pass (no poll fast-forward)",
          "[cpu][debug][poll]") {
    const StatusPollRun executed = run_status_poll(false, false);
    const StatusPollRun skipping = run_status_poll(true, false);
    // Asks for the fast-forward: attaching the debugger turns it off.
    const StatusPollRun debugged = run_status_poll(true, true);
    for (const StatusPollRun* r : {&executed, &skipping, &debugged}) CHECK(r->exit_code == 0);

    // Without a debugger most passes are counted, not executed, with the same
    // outcome: each pass reads the status once.
    INFO("passes " << executed.reads << ", read while fast-forwarding " << skipping.reads << ", skipped "
                   << skipping.skipped);
    CHECK(executed.skipped == 0);
    CHECK(skipping.skipped > executed.reads / 2);
    CHECK(skipping.reads + skipping.skipped == executed.reads);
    CHECK(skipping.instructions == executed.instructions);
    CHECK(skipping.end == executed.end);

    // Under the debugger every pass runs and stops at the breakpoint.
    CHECK(debugged.skipped == 0);
    CHECK(debugged.reads == executed.reads);
    CHECK(debugged.loop_stops == executed.reads);
    CHECK(debugged.instructions == executed.instructions);
    CHECK(debugged.end == executed.end);
}
