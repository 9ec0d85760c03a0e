// AhbBus + MemoryTarget: routing by address, window edges, gaps, wait states,
// error responses, observers and DMI.
#include <catch2/catch.hpp>

#include <cstring>
#include <memory>
#include <vector>

#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "tlm/ahb_bus.h"
#include "tlm/memory_target.h"
#include "tlm/sync_hint.h"
#include "testbench/unit/test_support.h"

using namespace ai8x;

namespace {

struct Recorder : BusObserver {
    std::vector<BusEvent> events;
    void on_transaction(const BusEvent& ev) override { events.push_back(ev); }
};

struct Initiator : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<Initiator, 32> socket;
    explicit Initiator(sc_core::sc_module_name n) : sc_module(n), socket("socket") {}

    tlm::tlm_response_status access(tlm::tlm_command cmd, uint64_t addr, uint32_t& data, unsigned len,
                                    sc_core::sc_time* delay_out = nullptr) {
        return test::blocking_access(socket, cmd, addr, data, len, delay_out);
    }
    tlm::tlm_response_status write(uint64_t addr, uint32_t v, unsigned len = 4) {
        return access(tlm::TLM_WRITE_COMMAND, addr, v, len);
    }
    uint32_t read(uint64_t addr, unsigned len = 4, tlm::tlm_response_status* st = nullptr) {
        uint32_t v = 0;
        const auto s = access(tlm::TLM_READ_COMMAND, addr, v, len);
        if (st) *st = s;
        return v;
    }
};

// cpu -> bus -> { rom @0x1000 (0x100 bytes, 2 wait states), ram @0x2000 (0x100), ram2 @0x3000 (0x10) }
struct BusBench {
    Initiator cpu{"cpu"};
    Initiator dbg{"dbg"};
    AhbBus bus{"bus"};
    MemoryTarget rom{"rom", 0x1000, 0x100, false};
    MemoryTarget ram{"ram", 0x2000, 0x100, true};
    MemoryTarget ram2{"ram2", 0x3000, 0x10, true};
    Recorder rec;

    BusBench() {
        cpu.socket.bind(bus.targ_socket);
        dbg.socket.bind(bus.targ_socket);
        bus.init_socket.bind(rom.socket);
        bus.init_socket.bind(ram.socket);
        bus.init_socket.bind(ram2.socket);
        bus.map(0, "rom", 0x1000, 0x100, 2);
        bus.map(1, "ram", 0x2000, 0x100, 0);
        bus.map(2, "ram2", 0x3000, 0x10, 1);
        bus.name_initiator(0, "cpu");
        bus.name_initiator(1, "dbg");
        bus.add_observer(&rec);
        bus.set_clock_period(sc_core::sc_time(10, sc_core::SC_NS));
        sc_core::sc_start(sc_core::SC_ZERO_TIME);  // completes socket binding
    }
};

}  // namespace

TEST_CASE("bus routes to several targets with absolute addresses", "[bus]") {
    BusBench b;
    REQUIRE(b.cpu.write(0x2000, 0x11223344) == tlm::TLM_OK_RESPONSE);
    REQUIRE(b.cpu.write(0x3000, 0xa5a5a5a5) == tlm::TLM_OK_RESPONSE);
    CHECK(b.ram.data()[0] == 0x44);
    CHECK(b.ram.data()[3] == 0x11);
    CHECK(b.ram2.data()[0] == 0xa5);
    CHECK(b.cpu.read(0x2000) == 0x11223344u);
    CHECK(b.cpu.read(0x3000) == 0xa5a5a5a5u);
    b.rom.data()[0x10] = 0x5a;
    CHECK(b.cpu.read(0x1010, 1) == 0x5au);
}

TEST_CASE("bus handles 8/16/32-bit accesses little-endian", "[bus]") {
    BusBench b;
    REQUIRE(b.cpu.write(0x2010, 0xdeadbeef) == tlm::TLM_OK_RESPONSE);
    CHECK(b.cpu.read(0x2010, 1) == 0xefu);
    CHECK(b.cpu.read(0x2012, 2) == 0xdeadu);
    REQUIRE(b.cpu.write(0x2011, 0x00, 1) == tlm::TLM_OK_RESPONSE);
    REQUIRE(b.cpu.write(0x2012, 0x1234, 2) == tlm::TLM_OK_RESPONSE);
    CHECK(b.cpu.read(0x2010) == 0x123400efu);
}

TEST_CASE("first and last byte of a window decode, the bytes beside them do not", "[bus]") {
    BusBench b;
    tlm::tlm_response_status st;
    CHECK(b.cpu.write(0x2000, 1, 1) == tlm::TLM_OK_RESPONSE);
    CHECK(b.cpu.write(0x20ff, 2, 1) == tlm::TLM_OK_RESPONSE);
    CHECK(b.ram.data()[0xff] == 2);
    CHECK(b.cpu.write(0x1fff, 3, 1) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    CHECK(b.cpu.write(0x2100, 4, 1) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    CHECK(b.cpu.write(0x300f, 5, 1) == tlm::TLM_OK_RESPONSE);
    b.cpu.read(0x3010, 1, &st);
    CHECK(st == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    // A word straddling the end of a window is not decoded either.
    CHECK(b.cpu.write(0x20fe, 6, 4) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    // Gap between windows, and far away.
    b.cpu.read(0x2800, 4, &st);
    CHECK(st == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    b.cpu.read(0x0, 4, &st);
    CHECK(st == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    b.cpu.read(0xfffffff0, 4, &st);
    CHECK(st == tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

TEST_CASE("wait states are annotated in bus clock periods", "[bus]") {
    BusBench b;
    uint32_t v = 0;
    sc_core::sc_time d;
    b.cpu.access(tlm::TLM_READ_COMMAND, 0x1000, v, 4, &d);
    CHECK(d == sc_core::sc_time(20, sc_core::SC_NS));
    b.cpu.access(tlm::TLM_READ_COMMAND, 0x2000, v, 4, &d);
    CHECK(d == sc_core::SC_ZERO_TIME);
    b.bus.set_clock_period(sc_core::sc_time(5, sc_core::SC_NS));
    b.cpu.access(tlm::TLM_WRITE_COMMAND, 0x3000, v, 4, &d);
    CHECK(d == sc_core::sc_time(5, sc_core::SC_NS));
}

TEST_CASE("read-only target answers writes with a command error, passed on by the bus", "[bus]") {
    BusBench b;
    b.rom.data()[0] = 0x77;
    CHECK(b.cpu.write(0x1000, 0x12345678) == tlm::TLM_COMMAND_ERROR_RESPONSE);
    CHECK(b.rom.data()[0] == 0x77);
}

TEST_CASE("observers see every transaction with initiator, data and status", "[bus]") {
    BusBench b;
    b.cpu.write(0x2004, 0xcafef00d);
    b.dbg.read(0x2006, 2);
    b.cpu.read(0x9000, 4);
    REQUIRE(b.rec.events.size() == 3);
    const BusEvent& w = b.rec.events[0];
    CHECK(w.initiator == "cpu");
    CHECK(w.command == tlm::TLM_WRITE_COMMAND);
    CHECK(w.address == 0x2004);
    CHECK(w.length == 4);
    CHECK(w.data == 0xcafef00du);
    CHECK(w.status == tlm::TLM_OK_RESPONSE);
    const BusEvent& r = b.rec.events[1];
    CHECK(r.initiator == "dbg");
    CHECK(r.command == tlm::TLM_READ_COMMAND);
    CHECK(r.length == 2);
    CHECK(r.data == 0xcafeu);
    CHECK(b.rec.events[2].status == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    CHECK(b.rec.events[2].address == 0x9000);
}

TEST_CASE("DMI is granted for memory targets and clipped to the window", "[bus]") {
    BusBench b;
    tlm::tlm_generic_payload t;
    tlm::tlm_dmi dmi;
    t.set_address(0x2040);
    t.set_command(tlm::TLM_WRITE_COMMAND);
    REQUIRE(b.cpu.socket->get_direct_mem_ptr(t, dmi));
    CHECK(dmi.get_start_address() == 0x2000);
    CHECK(dmi.get_end_address() == 0x20ff);
    CHECK(dmi.get_dmi_ptr() == b.ram.data());
    CHECK(dmi.is_write_allowed());

    tlm::tlm_dmi rom_dmi;
    t.set_address(0x1000);
    REQUIRE(b.cpu.socket->get_direct_mem_ptr(t, rom_dmi));
    CHECK(rom_dmi.is_read_allowed());
    CHECK_FALSE(rom_dmi.is_write_allowed());
    CHECK(rom_dmi.get_read_latency() == sc_core::sc_time(20, sc_core::SC_NS));

    tlm::tlm_dmi none;
    t.set_address(0x5000);
    CHECK_FALSE(b.cpu.socket->get_direct_mem_ptr(t, none));
}

TEST_CASE("overlapping windows are refused", "[bus]") {
    AhbBus bus("bus");
    bus.map(0, "a", 0x1000, 0x100, 0);
    CHECK_THROWS_AS(bus.map(1, "b", 0x10ff, 0x10, 0), std::invalid_argument);
    CHECK_NOTHROW(bus.map(1, "c", 0x1100, 0x10, 0));
}

namespace {

// A target of two windows whose bytes 0x4210-0x421f race with SystemC time.
struct RacingTarget : sc_core::sc_module {
    tlm_utils::simple_target_socket<RacingTarget, 32> socket;
    explicit RacingTarget(sc_core::sc_module_name n) : sc_module(n), socket("socket") {
        socket.register_b_transport(this, &RacingTarget::b_transport);
        socket.register_get_direct_mem_ptr(this, &RacingTarget::get_direct_mem_ptr);
    }
    void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time&) { t.set_response_status(tlm::TLM_OK_RESPONSE); }
    bool get_direct_mem_ptr(tlm::tlm_generic_payload& t, tlm::tlm_dmi&) {
        answer_sync_hint(t, {{0x4210, 0x421f}});
        return false;
    }
};

// The bus's answer to a DMI query for `address` carrying a SyncHint.
struct Answer {
    bool direct;
    SyncHint hint;
};
Answer ask(Initiator& cpu, uint64_t address) {
    tlm::tlm_generic_payload t;
    tlm::tlm_dmi dmi;
    Answer a{false, {}};
    t.set_address(address);
    t.set_command(tlm::TLM_READ_COMMAND);
    t.set_extension(&a.hint);
    a.direct = cpu.socket->get_direct_mem_ptr(t, dmi);
    t.clear_extension(&a.hint);
    return a;
}

}  // namespace

TEST_CASE("a DMI query's SyncHint learns windows, holes, target blocks and synchronised ranges", "[bus]") {
    Initiator cpu{"cpu"};
    AhbBus bus{"bus"};
    MemoryTarget ram{"ram", 0x2000, 0x100, true};
    RacingTarget racing{"racing"};
    cpu.socket.bind(bus.targ_socket);
    bus.init_socket.bind(ram.socket);
    bus.init_socket.bind(racing.socket);
    bus.map(0, "ram", 0x2000, 0x100, 0);
    bus.map(1, "regs", 0x4000, 0x100, 0);
    bus.map(1, "fifo", 0x4200, 0x100, 0);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);

    const Answer fifo = ask(cpu, 0x4214);
    CHECK_FALSE(fifo.direct);
    CHECK(fifo.hint.decoded);
    CHECK(fifo.hint.synchronise);
    CHECK(fifo.hint.start == 0x4210);
    CHECK(fifo.hint.end == 0x421f);
    CHECK(fifo.hint.block_start == 0x4000);  // both windows of the target, and the hole between
    CHECK(fifo.hint.block_end == 0x42ff);

    const Answer below = ask(cpu, 0x4200), above = ask(cpu, 0x4220), regs = ask(cpu, 0x4000);
    CHECK_FALSE(below.hint.synchronise);
    CHECK(below.hint.start == 0x4200);
    CHECK(below.hint.end == 0x420f);
    CHECK_FALSE(above.hint.synchronise);
    CHECK(above.hint.start == 0x4220);
    CHECK(above.hint.end == 0x42ff);
    CHECK_FALSE(regs.hint.synchronise);
    CHECK(regs.hint.start == 0x4000);
    CHECK(regs.hint.end == 0x40ff);

    const Answer hole = ask(cpu, 0x4150), past = ask(cpu, 0x9000), memory = ask(cpu, 0x2040);
    CHECK_FALSE(hole.hint.decoded);
    CHECK(hole.hint.start == 0x4100);
    CHECK(hole.hint.end == 0x41ff);
    CHECK_FALSE(past.hint.decoded);
    CHECK(past.hint.start == 0x4300);
    CHECK(past.hint.end == UINT64_MAX);
    CHECK(memory.direct);  // a target that does not know the hint: no synchronisation
    CHECK(memory.hint.decoded);
    CHECK_FALSE(memory.hint.synchronise);
    CHECK(memory.hint.start == 0x2000);
    CHECK(memory.hint.end == 0x20ff);
}

namespace {

// A target of one register block whose bytes 0x4210-0x421f race with SystemC
// time and have a direct transport (the same function and time as its
// b_transport: +7 ns, the word stored); each way counts its calls.
struct DirectTarget : sc_core::sc_module, DirectTransport {
    tlm_utils::simple_target_socket<DirectTarget, 32> socket;
    uint32_t word = 0;
    int through_socket = 0, direct = 0;
    explicit DirectTarget(sc_core::sc_module_name n) : sc_module(n), socket("socket") {
        socket.register_b_transport(this, &DirectTarget::b_transport);
        socket.register_get_direct_mem_ptr(this, &DirectTarget::get_direct_mem_ptr);
    }
    void serve(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
        delay += sc_core::sc_time(7, sc_core::SC_NS);
        if (t.get_address() % 4 != 0) return t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        if (t.is_write()) std::memcpy(&word, t.get_data_ptr(), 4);
        if (t.is_read()) std::memcpy(t.get_data_ptr(), &word, 4);
        t.set_response_status(tlm::TLM_OK_RESPONSE);
    }
    void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
        ++through_socket;
        serve(t, delay);
    }
    void direct_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) override {
        ++direct;
        serve(t, delay);
    }
    bool get_direct_mem_ptr(tlm::tlm_generic_payload& t, tlm::tlm_dmi&) {
        answer_sync_hint(t, {{0x4210, 0x421f}});
        if (SyncHint* hint = t.get_extension<SyncHint>(); hint && hint->synchronise) hint->direct = this;
        return false;
    }
};

// A route where test::blocking_access wants a socket: one access through it,
// as an initiator's b_transport would make it.
struct ViaRoute {
    BusRoute* route;
    ViaRoute* operator->() { return this; }
    void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) { route->transport(t, delay); }
};
tlm::tlm_response_status routed(BusRoute& route, tlm::tlm_command cmd, uint64_t address, uint32_t& data,
                                sc_core::sc_time& delay) {
    ViaRoute via{&route};
    return test::blocking_access(via, cmd, address, data, 4, &delay);
}

}  // namespace

TEST_CASE("a SyncHint's route does what the bus's b_transport does, and reaches a declared direct transport", "[bus]") {
    Initiator cpu{"cpu"}, dbg{"dbg"};
    AhbBus bus{"bus"};
    DirectTarget target{"target"};
    Recorder rec;
    cpu.socket.bind(bus.targ_socket);
    dbg.socket.bind(bus.targ_socket);
    bus.init_socket.bind(target.socket);
    bus.map(0, "regs", 0x4000, 0x100, 1);
    bus.map(0, "fifo", 0x4200, 0x100, 3);
    bus.name_initiator(0, "cpu");
    bus.name_initiator(1, "dbg");
    bus.add_observer(&rec);
    bus.set_clock_period(sc_core::sc_time(10, sc_core::SC_NS));
    sc_core::sc_start(sc_core::SC_ZERO_TIME);

    const Answer fifo = ask(cpu, 0x4214), regs = ask(cpu, 0x4000), other = ask(dbg, 0x4214);
    REQUIRE(fifo.hint.route != nullptr);
    REQUIRE(regs.hint.route != nullptr);
    REQUIRE(other.hint.route != nullptr);
    CHECK(fifo.hint.direct == &target);
    CHECK(regs.hint.direct == nullptr);
    CHECK(ask(cpu, 0x4218).hint.route == fifo.hint.route);  // one route per initiator, window and target shortcut
    CHECK(other.hint.route != fifo.hint.route);
    CHECK(ask(cpu, 0x4150).hint.route == nullptr);  // a hole: nothing to route to

    // Each access through a route against the same access through the bus.
    sc_core::sc_time via_route, via_bus;
    uint32_t data = 0x1234abcd;
    CHECK(routed(*fifo.hint.route, tlm::TLM_WRITE_COMMAND, 0x4214, data, via_route) == tlm::TLM_OK_RESPONSE);
    CHECK(target.direct == 1);
    CHECK(target.through_socket == 0);
    CHECK(cpu.access(tlm::TLM_WRITE_COMMAND, 0x4214, data, 4, &via_bus) == tlm::TLM_OK_RESPONSE);
    CHECK(target.through_socket == 1);
    CHECK(via_route == sc_core::sc_time(37, sc_core::SC_NS));  // the window's 3 wait states and the target's time
    CHECK(via_route == via_bus);
    uint32_t back = 0;
    CHECK(routed(*regs.hint.route, tlm::TLM_READ_COMMAND, 0x4000, back, via_route) == tlm::TLM_OK_RESPONSE);
    CHECK(back == 0x1234abcdu);
    CHECK(target.through_socket == 2);  // no direct transport declared there: through the socket
    CHECK(via_route == sc_core::sc_time(17, sc_core::SC_NS));
    CHECK(routed(*other.hint.route, tlm::TLM_READ_COMMAND, 0x4212, back, via_route) ==
          tlm::TLM_ADDRESS_ERROR_RESPONSE);  // the target's own error, passed on

    // The observers see every routed access as they see the bus's, with its initiator.
    REQUIRE(rec.events.size() == 4);
    CHECK(rec.events[0].initiator == "cpu");
    CHECK(rec.events[0].address == 0x4214);
    CHECK(rec.events[0].data == 0x1234abcdu);
    CHECK(rec.events[0].time == rec.events[1].time);
    CHECK(rec.events[2].command == tlm::TLM_READ_COMMAND);
    CHECK(rec.events[2].data == 0x1234abcdu);
    CHECK(rec.events[3].initiator == "dbg");
    CHECK(rec.events[3].status == tlm::TLM_ADDRESS_ERROR_RESPONSE);
}
