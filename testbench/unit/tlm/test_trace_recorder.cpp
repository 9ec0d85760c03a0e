// Trace recorder: what it writes for each kind of traffic, and that its output
// replays to the same memory contents.
#include <catch2/catch.hpp>

#include <sstream>

#include <systemc>
#include <tlm_utils/simple_target_socket.h>

#include "tlm/trace_parser.h"
#include "tlm/trace_player.h"
#include "tlm/trace_recorder.h"

using namespace ai8x;
using sc_core::SC_NS;
using sc_core::SC_US;

namespace {

BusEvent event(tlm::tlm_command cmd, uint64_t address, uint32_t data, double at_us, unsigned length = 4,
               const std::string& initiator = "cpu") {
    BusEvent ev;
    ev.initiator = initiator;
    ev.command = cmd;
    ev.address = address;
    ev.length = length;
    ev.data = data;
    ev.status = tlm::TLM_OK_RESPONSE;
    ev.time = sc_core::sc_time(at_us, SC_US);
    return ev;
}
BusEvent write_event(uint64_t a, uint32_t d, double t, unsigned len = 4) {
    return event(tlm::TLM_WRITE_COMMAND, a, d, t, len);
}
BusEvent read_event(uint64_t a, uint32_t d, double t, unsigned len = 4) {
    return event(tlm::TLM_READ_COMMAND, a, d, t, len);
}

// Recorded lines without the header comment.
std::vector<std::string> body(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) {
        if (l.rfind("# ai8xsim trace", 0) != 0) lines.push_back(l);
    }
    return lines;
}

}  // namespace

TEST_CASE("recorder: writes, single reads and polls", "[trace][recorder]") {
    std::ostringstream out;
    {
        TraceRecorder rec(out, "cpu");
        rec.on_transaction(write_event(0x50100000, 0x00100808, 0));
        rec.on_transaction(write_event(0x50100002, 0xbeef, 1, 2));
        rec.on_transaction(read_event(0x50100004, 7, 2));
        rec.on_transaction(read_event(0x50100000, 0, 3));  // a run of four reads of one address:
        rec.on_transaction(read_event(0x50100000, 0, 4));
        rec.on_transaction(read_event(0x50100000, 0, 5));
        rec.on_transaction(read_event(0x50100000, 0x800, 253));  // 250 us from first to final value
        rec.on_transaction(read_event(0x50100004, 7, 254));
        rec.on_transaction(read_event(0x50100008, 1, 255));
        rec.on_transaction(read_event(0x5010000c, 1, 256, 1));  // last pending read is written by the destructor
    }
    CHECK(body(out.str()) == std::vector<std::string>{
                                 "write32 0x50100000 0x00100808",
                                 "write16 0x50100002 0xbeef",
                                 "read32 0x50100004 0x00000007",
                                 "poll32 0x50100000 0x00000800 2ms",  // 4 * 250us + 1ms
                                 "read32 0x50100004 0x00000007",
                                 "read32 0x50100008 0x00000001",
                                 "read8 0x5010000c 0x01",
                             });
}

TEST_CASE("recorder: reads of one address with a write between are not one poll", "[trace][recorder]") {
    std::ostringstream out;
    TraceRecorder rec(out, "cpu");
    rec.on_transaction(read_event(0x50100000, 1, 0));
    rec.on_transaction(write_event(0x50100000, 3, 1));
    rec.on_transaction(read_event(0x50100000, 3, 2));
    rec.on_transaction(read_event(0x50100000, 3, 2, 2));  // same address, other width: a new run
    rec.flush();
    CHECK(body(out.str()) == std::vector<std::string>{
                                 "read32 0x50100000 0x00000001",
                                 "write32 0x50100000 0x00000003",
                                 "read32 0x50100000 0x00000003",
                                 "read16 0x50100000 0x0003",
                             });
}

TEST_CASE("recorder: other initiators, addresses outside windows and errors", "[trace][recorder]") {
    std::ostringstream out;
    TraceRecorder rec(out, "cpu");
    rec.add_window(0x50000000, 0x01000000);
    rec.add_window(0x40000000, 0x100);
    rec.on_transaction(event(tlm::TLM_WRITE_COMMAND, 0x50100000, 1, 0, 4, "dma"));
    rec.on_transaction(write_event(0x40000100, 1, 0));  // just past the second window
    rec.on_transaction(write_event(0x400000fc, 2, 0));
    BusEvent bad = read_event(0x50fffffc, 0, 1);
    bad.status = tlm::TLM_ADDRESS_ERROR_RESPONSE;
    rec.on_transaction(bad);
    rec.on_transaction(write_event(0x51000000, 3, 2));
    rec.flush();
    CHECK(body(out.str()) == std::vector<std::string>{
                                 "write32 0x400000fc 0x00000002",
                                 "# read32 0x50fffffc answered with an error response, not replayed",
                             });
}

TEST_CASE("recorder: interrupts become wait_irq, only on rising edges", "[trace][recorder]") {
    std::ostringstream out;
    TraceRecorder rec(out, "cpu");
    rec.set_timeout_policy(2, sc_core::sc_time(10, SC_US));
    rec.on_transaction(write_event(0x50100000, 1, 100));
    rec.on_transaction(read_event(0x50100004, 0, 101));
    rec.on_transaction(read_event(0x50100004, 0, 102));
    rec.on_irq(true, sc_core::sc_time(300, SC_US));  // 198 us after the last access
    rec.on_irq(true, sc_core::sc_time(301, SC_US));
    rec.on_irq(false, sc_core::sc_time(302, SC_US));
    rec.on_transaction(read_event(0x50100004, 1, 303));
    rec.flush();
    CHECK(body(out.str()) == std::vector<std::string>{
                                 "write32 0x50100000 0x00000001",
                                 "poll32 0x50100004 0x00000000 12us",  // 2 * 1us + 10us
                                 "wait_irq 406us",                     // 2 * 198us + 10us
                                 "read32 0x50100004 0x00000001",
                             });
}

namespace {

// Memory-only target for the replay round trip.
struct WordMemory : sc_core::sc_module {
    tlm_utils::simple_target_socket<WordMemory, 32> socket{"socket"};
    std::vector<uint8_t> bytes = std::vector<uint8_t>(1024, 0);
    explicit WordMemory(sc_core::sc_module_name n) : sc_module(n) {
        socket.register_b_transport(this, &WordMemory::b_transport);
    }
    void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time&) {
        const uint64_t off = gp.get_address() - 0x50400000;
        if (gp.is_write())
            std::memcpy(&bytes[off], gp.get_data_ptr(), gp.get_data_length());
        else
            std::memcpy(gp.get_data_ptr(), &bytes[off], gp.get_data_length());
        gp.set_response_status(tlm::TLM_OK_RESPONSE);
    }
};

}  // namespace

TEST_CASE("recorder: a recorded session replays to the same memory contents", "[trace][recorder]") {
    // What the "firmware" did, applied directly to a reference image.
    std::vector<uint8_t> expected(1024, 0);
    std::ostringstream out;
    {
        TraceRecorder rec(out, "cpu");
        double t = 0;
        auto write = [&](uint64_t a, uint32_t v, unsigned len) {
            std::memcpy(&expected[a - 0x50400000], &v, len);
            rec.on_transaction(write_event(a, v, t += 0.1, len));
        };
        auto read = [&](uint64_t a, unsigned len) {
            uint32_t v = 0;
            std::memcpy(&v, &expected[a - 0x50400000], len);
            rec.on_transaction(read_event(a, v, t += 0.1, len));
        };
        for (uint32_t i = 0; i < 64; ++i) write(0x50400000 + 4 * i, i * 0x01010101u + 0x1234, 4);
        write(0x50400102, 0xabcd, 2);
        write(0x50400107, 0x9a, 1);
        for (int i = 0; i < 5; ++i) read(0x50400100, 4);  // polling
        read(0x50400104, 4);
        write(0x50400100, 0, 4);
        read(0x50400100, 2);
    }
    WordMemory mem("mem");
    TracePlayer player("player", parse_trace_text(out.str(), "recorded.trace", "."));
    player.socket.bind(mem.socket);
    sc_core::sc_start();
    CHECK(player.result().finished);
    CHECK(player.result().failures.empty());
    CHECK(mem.bytes == expected);
    CHECK(mem.bytes[0x107] == 0x9a);  // the reference really was written
}
