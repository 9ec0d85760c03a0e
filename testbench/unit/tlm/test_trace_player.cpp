// Trace player against a small bus target: a word memory, a status register
// that becomes "done" some time after a start write, an address that answers
// with an error, and an interrupt raised together with "done".
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include <systemc>
#include <tlm_utils/simple_target_socket.h>

#include "tlm/trace_parser.h"
#include "tlm/trace_player.h"
#include "tlm/trace_word_file.h"
#include "testbench/unit/test_support.h"

using namespace ai8x;
using sc_core::SC_NS;
using sc_core::SC_US;
namespace fs = std::filesystem;

namespace {

constexpr uint64_t kMemBase = 0x20000000;
constexpr uint64_t kMemWords = 256;
constexpr uint64_t kStart = 0x40000000;   // write 1: start, done after kBusyTime
constexpr uint64_t kStatus = 0x40000004;  // bit 0: done
constexpr uint64_t kBroken = 0x40000008;  // always answers with an error
const sc_core::sc_time kBusyTime(5, SC_US);

struct ToyDevice : sc_core::sc_module {
    tlm_utils::simple_target_socket<ToyDevice, 32> socket{"socket"};
    std::vector<uint32_t> mem = std::vector<uint32_t>(kMemWords, 0);
    uint32_t status = 0;
    std::function<void(bool)> irq;
    sc_core::sc_event start_event;

    SC_HAS_PROCESS(ToyDevice);
    explicit ToyDevice(sc_core::sc_module_name n) : sc_module(n) {
        socket.register_b_transport(this, &ToyDevice::b_transport);
        SC_THREAD(engine);
    }

    void engine() {
        for (;;) {
            wait(start_event);
            wait(kBusyTime);
            status = 1;
            if (irq) irq(true);
        }
    }

    void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
        delay += sc_core::sc_time(10, SC_NS);
        const uint64_t a = gp.get_address();
        const unsigned len = gp.get_data_length();
        unsigned char* p = gp.get_data_ptr();
        gp.set_response_status(tlm::TLM_OK_RESPONSE);
        if (a >= kMemBase && a + len <= kMemBase + 4 * kMemWords) {
            auto* bytes = reinterpret_cast<unsigned char*>(mem.data()) + (a - kMemBase);
            if (gp.is_write())
                std::memcpy(bytes, p, len);
            else
                std::memcpy(p, bytes, len);
        } else if (a == kStart && gp.is_write()) {
            status = 0;
            if (irq) irq(false);
            start_event.notify(sc_core::SC_ZERO_TIME);
        } else if (a == kStatus && gp.is_read()) {
            std::memset(p, 0, len);
            p[0] = static_cast<unsigned char>(status);
        } else {
            gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        }
    }
};

// Builds device + player, runs the trace to the end, returns the result.
struct PlayerBench {
    ToyDevice dev{"dev"};
    TracePlayer player;
    PlayerBench(const std::string& text, const std::string& dir = ".")
        : player("player", parse_trace_text(text, "t.trace", dir)) {
        player.socket.bind(dev.socket);
        dev.irq = [this](bool level) { player.irq(level); };
    }
    const TraceResult& run() {
        sc_core::sc_start();
        return player.result();
    }
};

}  // namespace

TEST_CASE("player: writes of every width land in memory, read checks pass", "[trace][player]") {
    PlayerBench b(
        "write32 0x20000000 0x11223344\n"
        "write16 0x20000006 0xbeef\n"
        "write8  0x20000005 0x5a\n"
        "read32  0x20000000 0x11223344\n"
        "read16  0x20000006 0xbeef\n"
        "read32  0x20000004 0xbeef5a00\n"
        "read8   0x20000003 0x10 0xf0\n");
    const TraceResult& r = b.run();
    CHECK(r.finished);
    CHECK(r.commands_executed == 7);
    CHECK(r.failures.empty());
    CHECK(b.dev.mem[0] == 0x11223344u);
    CHECK(b.dev.mem[1] == 0xbeef5a00u);
}

TEST_CASE("player: a failed read check names address, expected and actual", "[trace][player]") {
    PlayerBench b(
        "write32 0x20000010 0x000000ff\n"
        "read32  0x20000010 0x000000fe\n"
        "read32  0x20000010 0x000000f0 0xf0\n"  // masked: holds
        "read32  0x20000010 0x00000000 0x01\n");
    const TraceResult& r = b.run();
    CHECK(r.finished);
    REQUIRE(r.failures.size() == 2);
    CHECK(r.failures[0].line == 2);
    CHECK(r.failures[0].address == 0x20000010u);
    CHECK(r.failures[0].expected == 0xfeu);
    CHECK(r.failures[0].actual == 0xffu);
    CHECK(r.failures[0].message ==
          "t.trace:2: read32 at 0x20000010: expected 0x000000fe (mask 0xffffffff), got 0x000000ff");
    CHECK(r.failures[1].line == 4);
    CHECK(r.failures[1].mask == 0x01u);
}

TEST_CASE("player: poll waits until the device is done", "[trace][player]") {
    PlayerBench b(
        "write32 0x40000000 1\n"
        "read32  0x40000004 0\n"
        "poll32  0x40000004 1 0x1 100us\n"
        "read32  0x40000004 1\n");
    const TraceResult& r = b.run();
    CHECK(r.failures.empty());
    CHECK(r.finished);
    // The poll cannot have succeeded before the device finished its work.
    CHECK(sc_core::sc_time_stamp() >= kBusyTime);
    CHECK(sc_core::sc_time_stamp() < kBusyTime + sc_core::sc_time(1, SC_US));
}

TEST_CASE("player: poll that never matches times out with the last value read", "[trace][player]") {
    PlayerBench b(
        "poll32 0x40000004 1 2us\n"
        "write32 0x20000000 7\n");
    const TraceResult& r = b.run();
    CHECK(r.finished);  // a timeout is a failed check, not the end of the trace
    CHECK(b.dev.mem[0] == 7u);
    REQUIRE(r.failures.size() == 1);
    CHECK(r.failures[0].expected == 1u);
    CHECK(r.failures[0].actual == 0u);
    CHECK(r.failures[0].message.find("within 2 us, last read 0x00000000") != std::string::npos);
    CHECK(sc_core::sc_time_stamp() >= sc_core::sc_time(2, SC_US));
}

TEST_CASE("player: wait_irq returns on the interrupt, even one that came early", "[trace][player]") {
    PlayerBench b(
        "write32 0x40000000 1\n"
        "wait_irq 100us\n"
        "read32 0x40000004 1\n"
        "write32 0x40000000 1\n"
        "poll32 0x40000004 1 100us\n"  // the interrupt fires while this poll runs ...
        "wait_irq 1us\n");             // ... and is still counted here
    const TraceResult& r = b.run();
    CHECK(r.failures.empty());
    CHECK(r.finished);
}

TEST_CASE("player: wait_irq without an interrupt fails after the timeout", "[trace][player]") {
    PlayerBench b("wait_irq 3us\n");
    const TraceResult& r = b.run();
    REQUIRE(r.failures.size() == 1);
    CHECK(r.failures[0].message == "t.trace:1: wait_irq: no interrupt within 3 us");
    CHECK(sc_core::sc_time_stamp() == sc_core::sc_time(3, SC_US));
}

TEST_CASE("player: error responses are failures and the trace goes on", "[trace][player]") {
    PlayerBench b(
        "write32 0x40000008 1\n"
        "read32 0x40000008 0\n"
        "write32 0x20000000 5\n");
    const TraceResult& r = b.run();
    REQUIRE(r.failures.size() == 2);
    CHECK(r.failures[0].address == kBroken);
    CHECK(r.failures[0].message.find("bus answered") != std::string::npos);
    CHECK(r.finished);
    CHECK(b.dev.mem[0] == 5u);
}

TEST_CASE("player: load, dump and check move whole images", "[trace][player]") {
    test::ScratchDir dir{"player"};
    write_word_file((dir.path / "in.bin").string(), {0x01020304, 0xa0b0c0d0, 0xffffffff, 0});
    write_word_file((dir.path / "same.hex").string(), {0x01020304, 0xa0b0c0d0});
    write_word_file((dir.path / "differs.hex").string(), {0x01020304, 0xa0b0c0d1, 0xfffffffe});
    PlayerBench b(
        "load  0x20000100 in.bin\n"
        "write32 0x20000110 0x55\n"
        "dump  0x20000100 20 out.hex\n"
        "dump  0x20000100 8 out.bin\n"
        "check 0x20000100 same.hex\n"
        "check 0x20000100 differs.hex\n",
        dir.path.string());
    const TraceResult& r = b.run();
    CHECK(r.errors.empty());
    CHECK(b.dev.mem[0x40] == 0x01020304u);
    CHECK(b.dev.mem[0x42] == 0xffffffffu);
    CHECK(read_word_file((dir.path / "out.hex").string()) ==
          std::vector<uint32_t>{0x01020304, 0xa0b0c0d0, 0xffffffff, 0, 0x55});
    CHECK(read_word_file((dir.path / "out.bin").string()) == std::vector<uint32_t>{0x01020304, 0xa0b0c0d0});
    REQUIRE(r.failures.size() == 2);
    CHECK(r.failures[0].line == 6);
    CHECK(r.failures[0].address == 0x20000104u);
    CHECK(r.failures[0].expected == 0xa0b0c0d1u);
    CHECK(r.failures[0].actual == 0xa0b0c0d0u);
    CHECK(r.failures[1].address == 0x20000108u);
}

TEST_CASE("player: many mismatches in one check are summarised", "[trace][player]") {
    test::ScratchDir dir{"player"};
    write_word_file((dir.path / "ones.bin").string(), std::vector<uint32_t>(40, 1));
    PlayerBench b("check 0x20000000 ones.bin\n", dir.path.string());
    const TraceResult& r = b.run();
    REQUIRE(r.failures.size() == 17);
    CHECK(r.failures.back().message.find("24 more word(s) differ from ones.bin") != std::string::npos);
}

TEST_CASE("player: a dump that cannot be written is an input error", "[trace][player]") {
    PlayerBench b("dump 0x20000000 4 /nonexistent-dir/x.bin\n");
    const TraceResult& r = b.run();
    CHECK(r.failures.empty());
    REQUIRE(r.errors.size() == 1);
    CHECK(r.errors[0] == "t.trace:1: dump: /nonexistent-dir/x.bin: cannot open for writing");
}
