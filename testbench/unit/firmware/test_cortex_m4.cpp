// CortexM4 on a minimal board: interrupt delivery in both waiting styles,
// simulated-time stopwatch, bus faults, hangs.
#include <catch2/catch.hpp>

#include "testbench/unit/firmware/test_board.h"

using namespace ai8x;
using namespace ai8x::test;

namespace {

struct Run {
    std::string console;
    int exit_code;
    std::optional<std::string> error;
    double sim_us;
    uint64_t instructions;
    std::vector<sc_core::sc_time> device_write_delays;  // what the stand-in device saw of each write
};

Run run_example(const std::string& name, double limit_ms = 100, bool device_declares_sync = false) {
    static DeviceConfig cfg = board_config();
    std::string elf = build_example(cfg, name);
    TestBoard board(cfg);
    board.device.declares_sync = device_declares_sync;
    board.cpu.load_elf(elf);
    sc_core::sc_start(sc_core::sc_time(limit_ms, sc_core::SC_MS));
    return {board.console,
            board.exit_code,
            board.cpu.error(),
            sc_core::sc_time_stamp().to_seconds() * 1e6,
            board.cpu.instructions(),
            board.device.write_delays};
}

}  // namespace

TEST_CASE("CNN interrupt reaches a CPU sleeping in WFI", "[cpu][irq]") {
    Run r = run_example("irq_wait");
    INFO(r.console << (r.error ? *r.error : "") << " instructions " << r.instructions);
    REQUIRE_FALSE(r.error);
    CHECK(r.exit_code == 0);
    CHECK(r.console.find("interrupts: 1,") != std::string::npos);
    // Sleeping costs SystemC time, not instructions: spinning through the
    // 50 us would take 5000 at 100 MHz on top of startup and printf.
    CHECK(r.instructions < 5000);
}

TEST_CASE("older generator releases' main(): NVIC_SetVector, SCB->SCR SLEEPDEEP and a bare __WFI", "[cpu][irq][shim]") {
    Run r = run_example("legacy_wfi");
    INFO(r.console << (r.error ? *r.error : "") << " instructions " << r.instructions);
    REQUIRE_FALSE(r.error);
    CHECK(r.exit_code == 0);  // 10..22: a CMSIS/MSDK name read back the wrong value
    CHECK(r.console.find("interrupts: 1,") != std::string::npos);
    CHECK(r.instructions < 5000);  // __WFI slept instead of spinning through the 50 us
}

TEST_CASE("CNN interrupt preempts a CPU spinning on a variable", "[cpu][irq]") {
    Run r = run_example("irq_spin");
    INFO(r.console << (r.error ? *r.error : "") << " instructions " << r.instructions);
    REQUIRE_FALSE(r.error);
    CHECK(r.exit_code == 0);
    CHECK(r.console.find("interrupts: 1,") != std::string::npos);
    CHECK(r.instructions > 5000);  // the loop did spin for ~50 us (5000 cycles)
}

TEST_CASE("stopwatch timer measures simulated time", "[cpu][timer]") {
    Run r = run_example("irq_wait");
    auto at = r.console.find("after ");
    REQUIRE(at != std::string::npos);
    unsigned us = unsigned(std::stoul(r.console.substr(at + 6)));
    // The device interrupts 50 us after the start write; allow the quantum
    // and the handler a few microseconds.
    CHECK(us >= 50);
    CHECK(us <= 55);
}

TEST_CASE("access to an undecoded address stops with a bus fault naming the function", "[cpu][fault]") {
    Run r = run_example("bus_fault");
    REQUIRE(r.error);
    CHECK(r.error->find("bus fault") != std::string::npos);
    CHECK(r.error->find("0x4e000000") != std::string::npos);
    CHECK(r.error->find("read_nowhere") != std::string::npos);
    CHECK(r.exit_code == -1);
}

TEST_CASE("a firmware that never ends is still running at the time limit", "[cpu][hang]") {
    Run r = run_example("hang", 2.0);
    CHECK_FALSE(r.error);
    CHECK(r.exit_code == -1);
    CHECK(r.sim_us == Approx(2000.0));
    // ~2 ms at the core clock spinning in `ldr r3, [r2]; cmp r3, #0; beq` (-O2):
    // three instructions costing a load from SRAM, a compare and a taken branch.
    const DeviceConfig cfg = board_config();
    const double loop_cycles = double(cfg.cpu_timing.load_cycles) + cfg.bus.sram_wait_states +
                               2.0 * cfg.cpu_timing.cycles_per_instruction + cfg.cpu_timing.branch_refill_cycles;
    CHECK(double(r.instructions) == Approx(2e-3 * cfg.clocks.cpu_hz * 3 / loop_cycles).epsilon(0.01));
}

TEST_CASE("an interrupt without a handler stops with an unhandled-exception error", "[cpu][irq][fault]") {
    Run r = run_example("unhandled_irq");
    REQUIRE(r.error);
    CHECK(r.error->find("unhandled exception") != std::string::npos);
    CHECK(r.error->find("interrupt 101") != std::string::npos);
    CHECK(r.sim_us < 100);  // stopped when the interrupt came (~50 us), not at the limit
}

// The CPU knows no device's address: a target declares the range whose state
// races with SystemC time (a SyncHint answer to the CPU's survey of the bus),
// and the CPU then makes its accesses there at its own instant, annotating no
// delay. (irq_wait's start write comes after a timer read, so the CPU runs
// ahead of SystemC time when it writes.)
TEST_CASE("a target that declares no synchronisation gets the CPU's writes ahead of SystemC time", "[cpu][sync]") {
    const Run r = run_example("irq_wait");
    REQUIRE(r.exit_code == 0);
    REQUIRE(r.device_write_delays.size() == 2);  // the start, the acknowledge in the handler
    CHECK(r.device_write_delays[0] > sc_core::SC_ZERO_TIME);
}

TEST_CASE("a target that declares its range synchronised gets the CPU's writes at SystemC time", "[cpu][sync]") {
    const Run r = run_example("irq_wait", 100, true);
    REQUIRE(r.exit_code == 0);
    REQUIRE(r.device_write_delays.size() == 2);
    for (const sc_core::sc_time& d : r.device_write_delays) CHECK(d == sc_core::SC_ZERO_TIME);
}
