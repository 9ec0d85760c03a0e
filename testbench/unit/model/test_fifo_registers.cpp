// Every field of FIFO_CTL and FIFO_STAT (configs/max78000.yaml register_map,
// docs/fifo.md §3-§4), each exercised through the bus: values are composed
// and read back by field name only.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <memory>
#include <string>

#include <systemc>

#include "model/registers/fifo_registers.h"
#include "model/registers/register_fields.h"
#include "testbench/unit/log_capture.h"
#include "testbench/unit/model/accel_test_bench.h"
#include "tlm/issue_time.h"
#include "tlm/sync_hint.h"

using namespace ai8x;
using ai8x::test::AccelBench;
using ai8x::test::LogCapture;
using ai8x::test::max78000;

namespace {

RegField field(const std::string& reg, const std::string& name) {
    const RegisterMap& m = *max78000().registers;
    return m.field(m.fifo_register(reg), name);
}
uint64_t reg_address(const std::string& name) {
    return max78000().fifo_regs.base + max78000().registers->fifo_register(name).offset;
}
uint64_t data_address(uint32_t fifo) { return max78000().fifo_regs.base + fifo_data_offset(max78000(), fifo); }

struct FifoRegisterBench : AccelBench {
    FifoRegisterBench() : AccelBench("fifo_regs") { sc_core::sc_start(sc_core::SC_ZERO_TIME); }
    uint32_t ctl() { return read(reg_address("FIFO_CTL")); }
    void set_ctl(uint32_t v) { REQUIRE(write(reg_address("FIFO_CTL"), v) == tlm::TLM_OK_RESPONSE); }
    uint32_t stat() { return read(reg_address("FIFO_STAT")); }
    void push(uint32_t fifo, uint32_t word) { REQUIRE(write(data_address(fifo), word) == tlm::TLM_OK_RESPONSE); }
};

}  // namespace

TEST_CASE("FIFO_CTL RDY_SEL and LEVEL_A and LEVEL_B are stored and read back without changing the FIFOs",
          "[fifo][registers]") {
    FifoRegisterBench b;
    const RegField rdy = field("FIFO_CTL", "RDY_SEL"), la = field("FIFO_CTL", "LEVEL_A"),
                   lb = field("FIFO_CTL", "LEVEL_B"), ena = field("FIFO_CTL", "FIFO_ENA"),
                   cpl = field("FIFO_CTL", "FIFO_CPL");
    REQUIRE(rdy.width > 0);
    REQUIRE(la.width > 0);
    REQUIRE(lb.width > 0);
    // Every value of each field, with FIFO 0 enabled, round-trips through the bus.
    for (const RegField* f : {&rdy, &la, &lb})
        for (uint32_t v = 0; v < (1u << f->width); ++v) {
            const uint32_t word = f->with(cpl.with(ena.with(0, 1), 1), v);
            b.set_ctl(word);
            CHECK(f->get(b.ctl()) == v);
            CHECK(b.ctl() == word);
        }
    // A level of 1 word does not make a FIFO report full early: full stays at the depth.
    b.set_ctl(la.with(lb.with(cpl.with(ena.with(0, 1), 1), 1), 1));
    const RegField full = field("FIFO_STAT", "FULL");
    for (uint32_t n = 0; n + 1 < max78000().fifo_depth; ++n) b.push(0, n);
    CHECK(full.get(b.stat()) == 0u);
    b.push(0, 99);
    CHECK(full.bit(b.stat(), 0));
}

TEST_CASE("FIFO_CTL enabling FIFOs without FIFO_CPL is warned about and with it is not", "[fifo][registers]") {
    FifoRegisterBench b;
    const RegField ena = field("FIFO_CTL", "FIFO_ENA"), cpl = field("FIFO_CTL", "FIFO_CPL");
    LogCapture log;
    b.set_ctl(cpl.with(ena.with(0, 0x3), 1));
    CHECK_FALSE(log.contains("FIFO_CPL"));
    b.set_ctl(ena.with(0, 0x3));
    CHECK(log.contains("FIFO_CPL"));
    CHECK(cpl.get(b.ctl()) == 0u);  // stored as written
    // The enables still work without it.
    b.push(1, 0x1234);
    CHECK(b.accel.fifo_words(1) == std::vector<uint32_t>{0x1234});
}

TEST_CASE("FIFO_CTL FIFO_ENA bit i admits words to FIFO i only and clearing it empties FIFO i", "[fifo][registers]") {
    FifoRegisterBench b;
    const RegField ena = field("FIFO_CTL", "FIFO_ENA"), cpl = field("FIFO_CTL", "FIFO_CPL");
    const uint32_t count = max78000().fifo_count;
    REQUIRE(ena.width == count);
    for (uint32_t i = 0; i < count; ++i) {
        b.set_ctl(cpl.with(ena.with(0, 1u << i), 1));
        for (uint32_t f = 0; f < count; ++f) b.push(f, 0x100 * (i + 1) + f);
        for (uint32_t f = 0; f < count; ++f) {
            INFO("enabled FIFO " << i << ", FIFO " << f);
            if (f == i)
                CHECK(b.accel.fifo_words(f) == std::vector<uint32_t>{0x100 * (i + 1) + f});
            else
                CHECK(b.accel.fifo_words(f).empty());  // disabled, or emptied when its bit was cleared
        }
    }
    // Clearing the bit of a FIFO that holds words empties it and its full flag drops.
    const uint32_t last = count - 1;
    b.set_ctl(cpl.with(ena.with(0, 1u << last), 1));
    for (uint32_t n = b.accel.fifo_words(last).size(); n < max78000().fifo_depth; ++n) b.push(last, n);
    const RegField full = field("FIFO_STAT", "FULL");
    CHECK(full.get(b.stat()) == 1u << last);
    b.set_ctl(cpl.with(0, 1));
    CHECK(b.accel.fifo_words(last).empty());
    CHECK(full.get(b.stat()) == 0u);
}

TEST_CASE("FIFO_STAT FULL follows each FIFO occupancy and ignores writes", "[fifo][registers]") {
    FifoRegisterBench b;
    const RegField ena = field("FIFO_CTL", "FIFO_ENA"), cpl = field("FIFO_CTL", "FIFO_CPL");
    const RegField full = field("FIFO_STAT", "FULL");
    const uint32_t count = max78000().fifo_count, depth = max78000().fifo_depth;
    REQUIRE(full.width == count);
    b.set_ctl(cpl.with(ena.with(0, (1u << count) - 1), 1));
    uint32_t expect = 0;
    for (uint32_t f = 0; f < count; ++f) {
        for (uint32_t n = 0; n < depth; ++n) {
            CHECK(full.get(b.stat()) == expect);
            b.push(f, n);
        }
        expect |= 1u << f;
        CHECK(full.get(b.stat()) == expect);
    }
    CHECK(b.stat() == full.with(0, expect));  // nothing outside FULL is set
    // Read-only: the bus answers with an error and the live flags stay.
    CHECK(b.write(reg_address("FIFO_STAT"), 0) == tlm::TLM_COMMAND_ERROR_RESPONSE);
    CHECK(full.get(b.stat()) == expect);
}

TEST_CASE("FIFO pushes and status reads are settled while no FIFO is full, never with an observer or two writers",
          "[fifo][registers]") {
    FifoRegisterBench b;
    InputFifoBlock& fifos = b.accel.fifo_block();
    const RegField ena = field("FIFO_CTL", "FIFO_ENA"), cpl = field("FIFO_CTL", "FIFO_CPL");
    const uint64_t base = max78000().fifo_regs.base;
    const uint64_t stat = reg_address("FIFO_STAT") - base, ctl = reg_address("FIFO_CTL") - base;
    b.set_ctl(cpl.with(ena.with(0, 0x3), 1));
    for (uint32_t f = 0; f < max78000().fifo_count; ++f) CHECK(fifos.settled_access(data_address(f) - base, true));
    CHECK(fifos.settled_access(stat, false));
    // FIFO_CTL changes what the accelerator does (and a cleared enable empties a
    // FIFO): always at the writer's instant.
    CHECK_FALSE(fifos.settled_access(ctl, true));
    CHECK_FALSE(fifos.settled_access(ctl, false));
    CHECK_FALSE(fifos.settled_access(stat, true));
    // One full FIFO: a pop before the writer's instant would change both the
    // status and whether a push is queued.
    for (uint32_t n = 0; n < max78000().fifo_depth; ++n) b.push(1, n);
    CHECK_FALSE(fifos.settled_access(stat, false));
    CHECK_FALSE(fifos.settled_access(data_address(0) - base, true));
    fifos.queues().pop(1);
    fifos.update_status();
    CHECK(fifos.settled_access(stat, false));
    fifos.set_single_writer(false);
    CHECK_FALSE(fifos.settled_access(stat, false));
    fifos.set_single_writer(true);
    struct Recorder : ActivityObserver {  // --vcd/--timeline: FIFO activity at SystemC time
        void inference_started(sc_core::sc_time, double) override {}
        void layer_ran(int, uint64_t, uint64_t, uint32_t, uint32_t, bool) override {}
        void stream_position(int, uint64_t, uint64_t, uint64_t) override {}
        void stalled(uint64_t, uint64_t) override {}
        void fifo_popped(uint64_t, unsigned, uint64_t) override {}
        void fifo_pushed(sc_core::sc_time, unsigned) override {}
        void fifo_cleared(sc_core::sc_time, unsigned) override {}
        void inference_finished(uint64_t) override {}
    } observer;
    fifos.set_observer(&observer);
    CHECK_FALSE(fifos.settled_access(stat, false));
    fifos.set_observer(nullptr);
}

TEST_CASE("a word written to FIFO_WR arrives at the writer's own instant (IssueTime), else at SystemC time",
          "[fifo][registers]") {
    FifoRegisterBench b;
    const RegField ena = field("FIFO_CTL", "FIFO_ENA"), cpl = field("FIFO_CTL", "FIFO_CPL");
    b.set_ctl(cpl.with(ena.with(0, 0x1), 1));
    InputFifos& q = b.accel.fifo_block().queues();
    const uint64_t now = sc_core::sc_time_stamp().value();
    b.push(0, 0xa);  // the bench's payload has no IssueTime: SystemC time
    CHECK(q.arrived_by(0, now) == 1);
    // A payload with the extension, as a CPU running 3 us ahead sends it.
    tlm::tlm_generic_payload trans;
    uint32_t word = 0xb;
    trans.set_command(tlm::TLM_WRITE_COMMAND);
    trans.set_address(data_address(0));
    trans.set_data_ptr(reinterpret_cast<unsigned char*>(&word));
    trans.set_data_length(4);
    trans.set_streaming_width(4);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    auto* at = new IssueTime;
    at->at = sc_core::sc_time_stamp() + sc_core::sc_time(3, sc_core::SC_US);
    trans.set_extension(at);
    sc_core::sc_time delay(3, sc_core::SC_US);
    b.init->b_transport(trans, delay);
    REQUIRE(trans.is_response_ok());
    CHECK(q.occupancy(0) == 2);
    CHECK(q.arrived_by(0, now) == 1);  // queued, but not there yet for a reader at SystemC time
    CHECK(q.next_arrival_after(now) == std::optional<uint64_t>(at->at.value()));
    CHECK(q.arrived_by(0, at->at.value()) == 2);
}

TEST_CASE("words written to a disabled FIFO: one warning, the rest counted in one line when the block goes",
          "[fifo][registers]") {
    LogCapture log;
    {
        FifoRegisterBench b;
        b.set_ctl(field("FIFO_CTL", "FIFO_CPL").with(0, 1));  // no FIFO enabled
        for (uint32_t n = 0; n < 100; ++n) b.push(0, n);
        b.push(1, 7);
        CHECK(b.accel.fifo_words(0).empty());
        CHECK(log.count("FIFO 0 write at") == 1);
        CHECK(log.count("FIFO 1 write at") == 1);
    }
    const unsigned bit0 = field("FIFO_CTL", "FIFO_ENA").lsb;
    CHECK(log.count("FIFO 0 written while FIFO_CTL enable bit " + std::to_string(bit0) +
                    " is clear: 99 more time(s)") == 1);
    CHECK_FALSE(log.contains("FIFO 1 written while"));
}

TEST_CASE("The input FIFOs are reset with the last quadrant that goes into reset or loses power, not before",
          "[fifo][power]") {
    FifoRegisterBench b;
    const RegField ena = field("FIFO_CTL", "FIFO_ENA"), cpl = field("FIFO_CTL", "FIFO_CPL");
    PowerControl& power = b.accel.power();
    const auto fill = [&] {
        b.set_ctl(cpl.with(ena.with(0, 1), 1));
        b.push(0, 0x11);
        REQUIRE(b.accel.fifo_words(0) == std::vector<uint32_t>{0x11});
    };
    fill();
    power.set_domain_reset(0x1);  // q0 in reset
    power.set_power_enable(0x9);  // q1 and q2 unpowered; q3 still runs
    CHECK(b.accel.fifo_words(0) == std::vector<uint32_t>{0x11});
    CHECK(b.ctl() != 0);
    power.set_domain_reset(0x9);  // q3 too: nothing of the CNN runs
    CHECK(b.accel.fifo_words(0).empty());
    CHECK(b.ctl() == 0);

    power.set_domain_reset(0x0);
    power.set_power_enable(0xf);
    fill();
    power.set_domain_reset(0xf);  // every quadrant in one write
    CHECK(b.accel.fifo_words(0).empty());
    power.set_domain_reset(0x0);
    fill();
    power.set_power_enable(0x0);
    CHECK(b.accel.fifo_words(0).empty());
}

TEST_CASE("One GCFR write that resets the last running quadrant and releases another keeps the input FIFOs",
          "[fifo][power]") {
    FifoRegisterBench b;
    const RegField ena = field("FIFO_CTL", "FIFO_ENA"), cpl = field("FIFO_CTL", "FIFO_CPL");
    PowerControl& power = b.accel.power();
    b.set_ctl(cpl.with(ena.with(0, 1), 1));
    b.push(0, 0x22);
    power.set_domain_reset(0xe);  // q1..q3 in reset; q0 runs
    // One write: q0 goes into reset and q3 comes out of it, so a quadrant still runs.
    power.set_domain_reset(0x7);
    CHECK(b.accel.fifo_words(0) == std::vector<uint32_t>{0x22});
    CHECK(b.ctl() != 0);
    power.set_domain_reset(0xf);  // now none runs
    CHECK(b.accel.fifo_words(0).empty());
}

namespace {

// The accelerator's SyncHint answer to a DMI query for `address`.
SyncHint fifo_hint_at(AccelBench& b, uint64_t address) {
    tlm::tlm_generic_payload query;
    tlm::tlm_dmi dmi;
    SyncHint hint;
    query.set_address(address);
    query.set_command(tlm::TLM_READ_COMMAND);
    query.set_extension(&hint);
    CHECK_FALSE(b.init->get_direct_mem_ptr(query, dmi));
    query.clear_extension(&hint);
    return hint;
}

// One access, made as a CPU 2 us ahead of SystemC time makes it (IssueTime), by `send`.
using Send = std::function<void(tlm::tlm_generic_payload&, sc_core::sc_time&)>;
tlm::tlm_response_status access_ahead(tlm::tlm_command cmd, uint64_t address, uint32_t& data, const Send& send) {
    tlm::tlm_generic_payload trans;
    trans.set_command(cmd);
    trans.set_address(address);
    trans.set_data_ptr(reinterpret_cast<unsigned char*>(&data));
    trans.set_data_length(4);
    trans.set_streaming_width(4);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    auto* at = new IssueTime;
    at->at = sc_core::sc_time_stamp() + sc_core::sc_time(2, sc_core::SC_US);
    trans.set_extension(at);
    sc_core::sc_time delay(2, sc_core::SC_US);
    send(trans, delay);
    return trans.get_response_status();
}

}  // namespace

TEST_CASE("the FIFO block's window has a direct transport that serves each access as the socket does",
          "[fifo][registers]") {
    FifoRegisterBench b;
    const SyncHint fifo = fifo_hint_at(b, data_address(1)), regs = fifo_hint_at(b, max78000().quadrant_regs.base);
    REQUIRE(fifo.synchronise);
    REQUIRE(fifo.direct != nullptr);
    CHECK(fifo.start == max78000().fifo_regs.base);  // the whole window, FIFO_CTL to the last FIFO_WR
    CHECK(fifo.end == max78000().fifo_regs.base + max78000().fifo_regs.size - 1);
    CHECK(regs.direct == nullptr);  // nowhere else

    const Send direct = [&](tlm::tlm_generic_payload& t, sc_core::sc_time& d) { fifo.direct->direct_transport(t, d); };
    const Send socket = [&](tlm::tlm_generic_payload& t, sc_core::sc_time& d) { b.init->b_transport(t, d); };
    const RegField ena = field("FIFO_CTL", "FIFO_ENA"), cpl = field("FIFO_CTL", "FIFO_CPL");
    uint32_t ctl = cpl.with(ena.with(0, 0x3), 1);
    CHECK(access_ahead(tlm::TLM_WRITE_COMMAND, reg_address("FIFO_CTL"), ctl, direct) == tlm::TLM_OK_RESPONSE);
    CHECK(b.ctl() == ctl);
    // Words pushed either way arrive at the writer's instant, in order.
    InputFifos& q = b.accel.fifo_block().queues();
    const uint64_t now = sc_core::sc_time_stamp().value(), ahead = now + sc_core::sc_time(2, sc_core::SC_US).value();
    for (uint32_t word = 1; word <= max78000().fifo_depth; ++word)
        CHECK(access_ahead(tlm::TLM_WRITE_COMMAND, data_address(1), word, word % 2 ? direct : socket) ==
              tlm::TLM_OK_RESPONSE);
    CHECK(q.arrived_by(1, now) == 0);
    CHECK(q.arrived_by(1, ahead) == max78000().fifo_depth);
    CHECK(q.contents(1).front() == 1);
    uint32_t via_direct = 0, via_socket = 0;
    CHECK(access_ahead(tlm::TLM_READ_COMMAND, reg_address("FIFO_STAT"), via_direct, direct) == tlm::TLM_OK_RESPONSE);
    CHECK(access_ahead(tlm::TLM_READ_COMMAND, reg_address("FIFO_STAT"), via_socket, socket) == tlm::TLM_OK_RESPONSE);
    CHECK(via_direct == via_socket);
    CHECK(field("FIFO_STAT", "FULL").get(via_direct) == 0x2u);
    // The register rules hold as through the socket: FIFO_STAT is read-only.
    uint32_t word = 0;
    CHECK(access_ahead(tlm::TLM_WRITE_COMMAND, reg_address("FIFO_STAT"), word, direct) ==
          tlm::TLM_COMMAND_ERROR_RESPONSE);
}
