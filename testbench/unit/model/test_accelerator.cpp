// Accelerator shell: block map, register decoding and reset values, field
// meanings, FIFO/AON blocks, register overrides, and the start -> busy ->
// completion -> interrupt sequence of the sequencer.
#include <algorithm>
#include <catch2/catch.hpp>

#include <vector>

#include "model/registers/quadrant_registers.h"
#include "testbench/unit/model/accel_test_bench.h"

using namespace ai8x;
using ai8x::test::AccelBench;
using ai8x::test::lreg;
using ai8x::test::max78000;
using ai8x::test::qreg;

namespace {}  // namespace

TEST_CASE("accelerator lists every block of the device description", "[accelerator]") {
    AccelBench b;
    const std::vector<AddressWindow> w = b.accel.windows();
    const DeviceConfig& c = max78000();
    CHECK(w.size() == 5 * c.quadrants + 2);
    // Windows carry the hierarchical name of the module that owns them.
    const std::string root = std::string(b.accel.name()) + ".";
    auto find = [&](const std::string& n) -> const AddressWindow* {
        for (const AddressWindow& x : w)
            if (x.name == root + n) return &x;
        return nullptr;
    };
    REQUIRE(find("q3.kernel"));
    CHECK(find("q3.kernel")->base == 0x50d80000u);
    CHECK(find("q3.kernel")->size == 15 * 0x4000u + 768 * 16);
    REQUIRE(find("q1.data_sram"));
    CHECK(find("q1.data_sram")->base == 0x50800000u);
    CHECK(find("q1.data_sram")->size == 0x20000u);
    REQUIRE(find("q2.regs"));
    CHECK(find("q2.regs")->is_register_block);
    CHECK_FALSE(find("q2.bias")->is_register_block);
    REQUIRE(find("fifo.regs"));
    CHECK(find("fifo.regs")->base == 0x50000000u);
    REQUIRE(find("aon"));
    CHECK(find("aon")->base == 0x50001000u);
    for (size_t i = 1; i < w.size(); ++i) CHECK(w[i - 1].base + w[i - 1].size <= w[i].base);  // sorted, disjoint
}

TEST_CASE("registers reset to zero and decode at their datasheet addresses", "[accelerator]") {
    AccelBench b;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    AcceleratorState& s = b.accel.state();
    for (uint32_t q = 0; q < 4; ++q) {
        CHECK(b.read(qreg(q, 0x0)) == 0u);
        REQUIRE(b.write(qreg(q, 0x0), 0x00100008 | q << 4) == tlm::TLM_OK_RESPONSE);
        REQUIRE(b.write(qreg(q, 0x4), 0x40e) == tlm::TLM_OK_RESPONSE);
        REQUIRE(b.write(qreg(q, 0x8), 10 + q) == tlm::TLM_OK_RESPONSE);
        REQUIRE(b.write(qreg(q, 0xc), 0x2) == tlm::TLM_OK_RESPONSE);        // no self-test start bit (test_reset_power)
        REQUIRE(b.write(qreg(q, 0x990), 0x1234) == tlm::TLM_OK_RESPONSE);   // REG_IFRM (612 * 4)
        REQUIRE(b.write(qreg(q, 0x1000), 0xfeed) == tlm::TLM_OK_RESPONSE);  // REG_MLAT (1024 * 4)
        CHECK(s.quadrant[q].ctl == (0x00100008u | q << 4));
        CHECK(s.quadrant[q].sram == 0x40eu);
        CHECK(s.quadrant[q].lcnt_max == 10u + q);
        CHECK(s.quadrant[q].sram_test == 2u);
        CHECK(s.quadrant[q].ifrm == 0x1234u);
        CHECK(s.quadrant[q].mlat == 0xfeedu);
        CHECK(b.read(qreg(q, 0x8)) == 10u + q);
    }
}

TEST_CASE("every per-layer register kind decodes for the first and last layer", "[accelerator]") {
    AccelBench b;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    AcceleratorState& s = b.accel.state();
    const std::vector<unsigned> kinds = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 20};
    for (uint32_t q : {0u, 3u})
        for (unsigned k : kinds)
            for (unsigned layer : {0u, 31u}) {
                const uint32_t v = 0x01000000u * (k + 1) + 0x100u * layer + q;
                REQUIRE(b.write(lreg(q, k, layer), v) == tlm::TLM_OK_RESPONSE);
                CHECK(s.quadrant[q].lreg[k][layer] == v);
                CHECK(b.read(lreg(q, k, layer)) == v);
            }
    // Known generator addresses: layer 0 WPTR_BASE of quadrant 0 and LCTL of layer 1 quadrant 1.
    REQUIRE(b.write(0x50100310, 0x2000) == tlm::TLM_OK_RESPONSE);
    CHECK(s.quadrant[0].lreg[LREG_WPTR_BASE][0] == 0x2000u);
    REQUIRE(b.write(0x50500594, 0x920) == tlm::TLM_OK_RESPONSE);
    CHECK(s.quadrant[1].lreg[LREG_LCTL][1] == 0x920u);
}

TEST_CASE("holes in the register block, odd sizes and unmapped addresses are errors", "[accelerator]") {
    AccelBench b;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    CHECK(b.read_status(lreg(0, 19, 1)) == tlm::TLM_ADDRESS_ERROR_RESPONSE);  // slot 19 exists only for layer 0
    CHECK(b.read_status(qreg(0, 0xa90)) == tlm::TLM_ADDRESS_ERROR_RESPONSE);  // after the last kind
    CHECK(b.read_status(qreg(0, 0x1004)) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    CHECK(b.write(qreg(0, 0x0), 1, 1) == tlm::TLM_BURST_ERROR_RESPONSE);
    CHECK(b.write(qreg(0, 0x2), 1, 2) == tlm::TLM_BURST_ERROR_RESPONSE);
    CHECK(b.read_status(qreg(0, 0x2000)) == tlm::TLM_ADDRESS_ERROR_RESPONSE);  // just past the block
    CHECK(b.read_status(0x50002000) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    CHECK(b.read_status(0x50300000) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    CHECK(b.accel.state().quadrant[0].ctl == 0u);
}

TEST_CASE("control register fields carry the generator's meanings", "[accelerator]") {
    // Values composed by the generator (ai8xize) for a streaming FIFO network:
    // slave enable 0x0018c809 = clocks | ext_sync | stream | FIFO | lilbuf | mexpress | run.
    QuadrantRegisters regs;
    regs.lreg.assign(max78000().layer_register_count, std::vector<uint32_t>(max78000().max_layers, 0));
    RegisterBank bank("q", 0);
    add_quadrant_registers(bank, regs, max78000());
    Register& ctl = *bank.find("REG_CTL");
    ctl.set(0x0018c809);
    CHECK(ctl.field("CNN_EN") == 1);
    CHECK(ctl.field("CLK_EN") == 1);
    CHECK(ctl.field("EXT_SYNC") == 1);
    CHECK(ctl.field("MASTER_SEL") == 0);
    CHECK(ctl.field("STREAM_EN") == 1);
    CHECK(ctl.field("FIFO_EN") == 1);
    CHECK(ctl.field("LILBUF") == 1);
    CHECK(ctl.field("MEXPRESS") == 1);
    CHECK(ctl.field("CNN_IRQ") == 0);
    // Layer control 0x920: master | max pool | SRAM source from other quadrants.
    Register& lctl = *bank.find("L3_LREG_LCTL");
    lctl.set(0x920);
    CHECK(lctl.field("MASTER") == 1);
    CHECK(lctl.field("MAXPL_EN") == 1);
    CHECK(lctl.field("SRAMLSRC") == 1);
    CHECK(lctl.field("ACT_EN") == 0);
    // Enable register: processors in the low half, masks in the high half.
    Register& ena = *bank.find("L0_LREG_ENA");
    ena.set(0x000f000f);
    CHECK(ena.field("PRO_EN") == 0xf);
    CHECK(ena.field("MASK_EN") == 0xf);
    CHECK(layer_register_name(max78000(), LREG_WPTR_BASE) == "LREG_WPTR_BASE");
    CHECK(layer_register_name(max78000(), LREG_LCTL2) == "LREG_LCTL2");
    CHECK(layer_register_name(max78000(), 19) == "LREG_19");  // REG_IFRM's word: no per-layer kind
}

TEST_CASE("FIFO and AON blocks", "[accelerator]") {
    AccelBench b;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    REQUIRE(b.write(0x50000000, 0x00009908) == tlm::TLM_OK_RESPONSE);  // FIFOs 0 and 3 enabled
    CHECK(b.accel.state().fifo_ctl == 0x9908u);
    CHECK(b.read(0x50000004) == 0u);  // empty: not full
    CHECK(b.write(0x50000004, 1) == tlm::TLM_COMMAND_ERROR_RESPONSE);
    REQUIRE(b.write(0x50000008, 0x11) == tlm::TLM_OK_RESPONSE);
    REQUIRE(b.write(0x50000008, 0x22) == tlm::TLM_OK_RESPONSE);
    REQUIRE(b.write(0x50000014, 0x33) == tlm::TLM_OK_RESPONSE);
    REQUIRE(b.write(0x5000000c, 0x44) == tlm::TLM_OK_RESPONSE);  // FIFO 1 disabled: dropped
    CHECK(b.accel.fifo_words(0) == std::vector<uint32_t>{0x11, 0x22});
    CHECK(b.accel.fifo_words(3) == std::vector<uint32_t>{0x33});
    CHECK(b.accel.fifo_words(1).empty());
    CHECK(b.accel.fifo_dropped_words() == 1);
    CHECK(b.read(0x50000008) == 0u);  // write-only
    // FIFO_STAT bit i follows the occupancy: full at the configured depth, then words are lost.
    const DeviceConfig& cfg = b.accel.state().cfg;
    for (uint32_t n = 2; n < cfg.fifo_depth; ++n) {
        CHECK(b.read(0x50000004) == 0u);
        REQUIRE(b.write(0x50000008, n) == tlm::TLM_OK_RESPONSE);
    }
    CHECK(b.read(0x50000004) == 1u);
    REQUIRE(b.write(0x50000008, 0x99) == tlm::TLM_OK_RESPONSE);
    CHECK(b.accel.fifo_words(0).size() == cfg.fifo_depth);
    CHECK(b.accel.fifo_dropped_words() == 2);
    // Clearing an enable bit empties that FIFO.
    REQUIRE(b.write(0x50000000, 0x00008908) == tlm::TLM_OK_RESPONSE);
    CHECK(b.accel.fifo_words(0).empty());
    CHECK(b.read(0x50000004) == 0u);
    REQUIRE(b.write(0x50001000, 0x0000e000) == tlm::TLM_OK_RESPONSE);
    CHECK(b.accel.state().aon_ctl == 0xe000u);
}

TEST_CASE("register override replaces what the firmware writes", "[accelerator]") {
    AccelBench b;
    // Refusals first: ASan loses track of the main stack once SystemC has
    // switched to a coroutine stack, and then misreads a C++ throw as a stack
    // error (its "ignoring __asan_handle_no_return" false positive).
    CHECK_THROWS_AS(b.accel.add_register_override(0x50400000, 1), std::invalid_argument);  // data memory
    CHECK_THROWS_AS(b.accel.add_register_override(0x40000000, 1), std::invalid_argument);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    b.accel.add_register_override(qreg(1, 0x8), 0x3);
    REQUIRE(b.write(qreg(1, 0x8), 0xa) == tlm::TLM_OK_RESPONSE);
    CHECK(b.accel.state().quadrant[1].lcnt_max == 3u);
    REQUIRE(b.write(qreg(0, 0x8), 0xa) == tlm::TLM_OK_RESPONSE);
    CHECK(b.accel.state().quadrant[0].lcnt_max == 0xau);
}

namespace {

// Plays the generated cnn_start()/CNN_ISR() sequence against the accelerator.
struct StartDriver : AccelBench {
    std::vector<std::pair<sc_core::sc_time, bool>> irq_edges;
    sc_core::sc_time started, ctl_busy_read_time;
    uint32_t ctl_while_busy = 0, ctl_after = 0, ctl_q1_after = 0, ctl_q2_after = 0;
    bool busy_seen = false;
    bool slave_only_started = false;

    SC_HAS_PROCESS(StartDriver);
    StartDriver() : AccelBench("drv") {
        on_irq = [this](bool level) { irq_edges.push_back({sc_core::sc_time_stamp(), level}); };
        SC_THREAD(run);
    }

    void run() {
        using sc_core::SC_NS;
        for (uint32_t q : {0u, 1u}) {
            write(qreg(q, 0x0), 0x00100008);  // stop SM, clocks, mexpress
            write(qreg(q, 0x8), 0x0);         // one layer, nothing enabled in it
        }
        // A slave enable alone must not start anything.
        write(qreg(1, 0x0), 0x00100809);
        sc_core::wait(1, sc_core::SC_US);
        slave_only_started = !irq_edges.empty() || accel.busy();

        write(qreg(0, 0x0), 0x00100808);  // enable quadrant 0 (master, not yet running)
        started = sc_core::sc_time_stamp();
        write(qreg(0, 0x0), 0x00100009);  // master enable: go
        sc_core::wait(sc_core::SC_ZERO_TIME);
        sc_core::wait(sc_core::SC_ZERO_TIME);
        busy_seen = accel.busy();
        ctl_while_busy = read(qreg(0, 0x0));
        sc_core::wait(5, sc_core::SC_US);
        ctl_after = read(qreg(0, 0x0));
        ctl_q1_after = read(qreg(1, 0x0));
        ctl_q2_after = read(qreg(2, 0x0));
        // CNN_ISR: acknowledge both quadrants with read-modify-write.
        for (uint32_t q : {0u, 1u}) write(qreg(q, 0x0), read(qreg(q, 0x0)) & ~((1u << 12) | 1u));
        sc_core::wait(10, SC_NS);
    }
};

}  // namespace

TEST_CASE("master enable starts the sequencer, completion sets CNN_IRQ and the interrupt", "[accelerator]") {
    StartDriver d;
    d.accel.set_cnn_clock_hz(50e6);
    sc_core::sc_start(100, sc_core::SC_US);

    CHECK_FALSE(d.slave_only_started);
    CHECK(d.busy_seen);
    CHECK((d.ctl_while_busy & (1u << 12)) == 0);  // not complete yet
    CHECK((d.ctl_while_busy & 1u) == 1u);
    // Completion after the timing model's cycle count at 50 MHz (start-up only for an empty program).
    const uint64_t cycles = d.accel.busy_cycles();
    CHECK(cycles == std::max<uint64_t>(1, d.accel.last_timing().total()));
    CHECK(cycles >= 1);
    REQUIRE(d.irq_edges.size() == 2);
    CHECK(d.irq_edges[0].second == true);
    CHECK(d.irq_edges[0].first == d.started + sc_core::sc_time(double(cycles) * 20.0, sc_core::SC_NS));
    // Both running quadrants flag completion, the idle one does not; run bits stay set.
    CHECK(d.ctl_after == (0x00100009u | 1u << 12));
    CHECK(d.ctl_q1_after == (0x00100809u | 1u << 12));
    CHECK(d.ctl_q2_after == 0u);
    // The line drops only once the last pending quadrant is acknowledged.
    CHECK(d.irq_edges[1].second == false);
    CHECK(d.irq_edges[1].first > d.irq_edges[0].first);
    CHECK(d.accel.state().quadrant[0].ctl == 0x00100008u);
    CHECK(d.accel.state().quadrant[1].ctl == 0x00100808u);
}

namespace {
struct ClockDriver : AccelBench {
    sc_core::sc_time irq_at;
    SC_HAS_PROCESS(ClockDriver);
    ClockDriver() : AccelBench("clk") {
        on_irq = [this](bool level) {
            if (level) irq_at = sc_core::sc_time_stamp();
        };
        SC_THREAD(run);
    }
    void run() {
        write(qreg(2, 0x0), 0x00000408);  // quadrant 2 is its own master (EXT_SYNC = 2)
        write(qreg(2, 0x0), 0x00000409);
    }
};
}  // namespace

TEST_CASE("busy time follows the CNN clock and any quadrant can be the master", "[accelerator]") {
    ClockDriver d;
    d.accel.set_cnn_clock_hz(1e6);
    sc_core::sc_start(1, sc_core::SC_MS);
    const uint64_t cycles = d.accel.busy_cycles();
    REQUIRE(cycles >= 1);
    CHECK(d.irq_at == sc_core::sc_time(double(cycles), sc_core::SC_US));
    CHECK((d.accel.state().quadrant[2].ctl & (1u << 12)) != 0);
    CHECK((d.accel.state().quadrant[0].ctl & (1u << 12)) == 0);
}
