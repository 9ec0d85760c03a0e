// The CPU counts instructions per translated block; this checks the count and
// the time it turns into against a loop whose length is known by construction
// (firmware/examples/counted_loop).
#include <catch2/catch.hpp>

#include "testbench/unit/firmware/test_board.h"

using namespace ai8x;
using namespace ai8x::test;

TEST_CASE("a call to a counted loop lasts exactly its instructions and taken branches, condition-failed ones included",
          "[cpu][timing]") {
    static DeviceConfig cfg = board_config();
    TestBoard board(cfg);
    board.cpu.load_elf(build_example(cfg, "counted_loop"));
    const uint32_t entry = board.cpu.image()->symbol_address("counted_loop");
    int calls = 0;
    sc_core::sc_time duration;
    board.cpu.observe_calls(entry, [&](sc_core::sc_time entered, sc_core::sc_time returned) {
        ++calls;
        duration = returned - entered;
    });
    sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_MS));
    REQUIRE_FALSE(board.cpu.error());
    REQUIRE(calls == 1);
    // `entered` is taken after the entry instruction and `returned` after the
    // last, so the call spans the other 701 of its 702 instructions. The loop
    // reads no memory, so no wait states are added; its branch back is taken 99
    // times and the return once, each refilling the pipeline.
    const double cycle_s = 1.0 / cfg.clocks.cpu_hz;
    const double expected_s =
        (701 * double(cfg.cpu_timing.cycles_per_instruction) + 100 * double(cfg.cpu_timing.branch_refill_cycles)) *
        cycle_s;
    CHECK(duration.to_seconds() == Approx(expected_s).margin(cycle_s / 2));
}
