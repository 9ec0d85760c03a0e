// The test benches' SystemC kernels (testbench/unit/sim_kernel.h): a bench
// destroyed on a kernel that lives on leaves its processes there, and the
// next sc_start would run them on freed memory; a bench refuses to be
// elaborated beside them, and one on a kernel of its own runs.
#include <catch2/catch.hpp>

#include <algorithm>

#include "testbench/unit/model/accel_test_bench.h"
#include "testbench/unit/sim_kernel.h"

using namespace ai8x;
using ai8x::test::AccelBench;
using ai8x::test::qreg;

namespace {
bool names_include(const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}
}  // namespace

TEST_CASE("a bench is refused beside the processes of a destroyed bench, and on a kernel of its own it runs",
          "[kernel]") {
    { AccelBench first; }  // elaborated and destroyed, never run: its sequencer stays in the kernel
    CHECK(names_include(test::left_behind_processes(), "bench.accel.sequencer"));
    CHECK_THROWS_WITH(AccelBench("second"),
                      Catch::Contains("bench.accel.sequencer") && Catch::Contains("process(es) of a destroyed module"));
    {
        test::OwnKernel kernel;
        AccelBench b;  // the destroyed bench's name, taken again without a W505 rename
        CHECK(test::left_behind_processes().empty());
        CHECK(sc_core::sc_find_object("bench.accel.sequencer") != nullptr);
        bool irq = false;
        b.on_irq = [&](bool level) { irq |= level; };
        b.accel.set_cnn_clock_hz(50e6);
        sc_core::sc_start(sc_core::SC_ZERO_TIME);
        // An empty one-layer program on quadrant 0 (REG_LCNT_MAX, then REG_CTL with its clock, then CNN_EN).
        REQUIRE(b.write(qreg(0, 0x8), 0) == tlm::TLM_OK_RESPONSE);
        REQUIRE(b.write(qreg(0, 0x0), 0x00100008) == tlm::TLM_OK_RESPONSE);
        REQUIRE(b.write(qreg(0, 0x0), 0x00100009) == tlm::TLM_OK_RESPONSE);
        sc_core::sc_start(1, sc_core::SC_MS);
        CHECK(irq);
    }
    // The process's kernel is current again, with what was left in it.
    CHECK(names_include(test::left_behind_processes(), "bench.accel.sequencer"));
}
