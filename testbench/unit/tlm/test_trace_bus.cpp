// Player and recorder on the real interconnect: the player acts as the CPU,
// the recorder watches the bus, and the recording must say what was done.
#include <catch2/catch.hpp>

#include <sstream>

#include <systemc>

#include "tlm/ahb_bus.h"
#include "tlm/memory_target.h"
#include "tlm/trace_parser.h"
#include "tlm/trace_player.h"
#include "tlm/trace_recorder.h"

using namespace ai8x;

TEST_CASE("recorder on the AHB bus records what the player did", "[trace][recorder][bus]") {
    constexpr uint64_t kBase = 0x20000000;
    std::ostringstream recorded;
    AhbBus bus("bus");
    MemoryTarget ram("ram", kBase, 0x1000, true);
    TracePlayer cpu("cpu",
                    parse_trace_text("write32 0x20000000 0xcafe0001\n"
                                     "write8  0x20000005 0x42\n"
                                     "read32  0x20000000 0xcafe0001\n"
                                     "read32  0x20000000 0xcafe0001\n"
                                     "read32  0x20000000 0xcafe0001\n"
                                     "read16  0x20000004 0x4200\n"
                                     "write32 0x30000000 1\n",  // nobody decodes this
                                     "t.trace", "."));
    TraceRecorder recorder(recorded, "cpu");
    cpu.socket.bind(bus.targ_socket);
    bus.init_socket.bind(ram.socket);
    bus.name_initiator(0, "cpu");
    bus.map(0, "ram", kBase, 0x1000, 1);
    bus.set_clock_period(sc_core::sc_time(10, sc_core::SC_NS));
    bus.add_observer(&recorder);
    sc_core::sc_start();
    recorder.flush();

    const TraceResult& r = cpu.result();
    CHECK(r.finished);
    REQUIRE(r.failures.size() == 1);  // the unmapped write
    CHECK(r.failures[0].address == 0x30000000u);
    CHECK(ram.data()[0] == 0x01);
    CHECK(ram.data()[5] == 0x42);

    const Trace t = parse_trace_text(recorded.str(), "recorded", ".");
    REQUIRE(t.commands.size() == 4);
    CHECK(format_trace_command(t.commands[0]) == "write32 0x20000000 0xcafe0001");
    CHECK(format_trace_command(t.commands[1]) == "write8 0x20000005 0x42");
    CHECK(t.commands[2].op == TraceOp::Poll);  // three reads of one address
    CHECK(t.commands[2].value == 0xcafe0001u);
    CHECK(format_trace_command(t.commands[3]) == "read16 0x20000004 0x4200");
    CHECK(recorded.str().find("# write32 0x30000000 answered with an error response") != std::string::npos);
}
