// The RISC-V core's fast FIFO (model/fifo/fast_fifo.h) feeding the
// accelerator: one single-FIFO vector (t-test-fifo-hwc, applied directly to the
// state, REG_CTL.FFIFO_EN set so the input comes from the fast FIFO) run twice
// in one simulation, first fed as fast as the fast FIFO's full flag allows,
// then by a feeder that waits before every word. Both give the known answer;
// the slow one stalls the CNN more. A feeder that ignores the full flag loses
// words, and each lost word is counted once.
#include <catch2/catch.hpp>

#include <systemc>

#include "model/engine/layer_config.h"
#include "model/fifo/fast_fifo.h"
#include "model/registers/register_fields.h"
#include "testbench/unit/model/accel_test_bench.h"
#include "testbench/unit/model/vector_loader.h"
#include "build_paths.h"

using namespace ai8x;
using ai8x::test::AccelBench;
using ai8x::test::kBenchCnnHz;
using ai8x::test::max78000;
using ai8x::test::max78000_ctl_fields;

namespace {

// The fast FIFO's registers as the RISC-V core reaches them: APB accesses at
// offsets from its base (configs peripherals FAST_FIFO).
uint64_t fast_offset(const char* reg) { return max78000().registers->find_peripheral("FAST_FIFO")->find(reg)->offset; }
uint32_t fast_status_bit(const char* field) {
    return max78000().registers->find_peripheral("FAST_FIFO")->find("SR")->find(field)->field().mask();
}
tlm::tlm_response_status fast_access(FastFifo& ff, tlm::tlm_command cmd, uint64_t offset, uint32_t& data) {
    return ai8x::test::blocking_access(ff.socket.get_base_export(), cmd, offset, data, 4);
}
uint32_t fast_status(FastFifo& ff) {
    uint32_t v = 0;
    REQUIRE(fast_access(ff, tlm::TLM_READ_COMMAND, fast_offset("SR"), v) == tlm::TLM_OK_RESPONSE);
    return v;
}
void fast_push(FastFifo& ff, uint32_t word) {
    REQUIRE(fast_access(ff, tlm::TLM_WRITE_COMMAND, fast_offset("DATA"), word) == tlm::TLM_OK_RESPONSE);
}

struct FastRun {
    sc_core::sc_time started, finished;
    uint64_t busy_cycles = 0, stall_cycles = 0, dropped = 0;
    bool saw_full = false;
    std::optional<test::Mismatch> mismatch;
};

struct FastFeeder : AccelBench {
    test::GoldenVector vec = test::load_vector(AI8XSIM_SHARED_DIR "/vectors/t-test-fifo-hwc");
    std::vector<std::vector<uint32_t>> frame;
    uint32_t master_ctl = 0;
    uint64_t master_ctl_address = 0;
    sc_core::sc_time slow_gap;
    FastRun fast, slow;
    sc_core::sc_event irq;

    SC_HAS_PROCESS(FastFeeder);
    explicit FastFeeder(sc_core::sc_time gap) : AccelBench("fast_feeder"), slow_gap(gap) {
        frame = test::fifo_frame(vec, max78000());
        test::apply_vector(vec, accel.state());
        const test::ControlWrite start = test::start_write(vec, max78000());
        master_ctl = start.value, master_ctl_address = start.address;
        // What --fast-fifo firmware writes for input on processors 0-3: the master takes
        // its input from the fast FIFO, whole words into processors 0-3 (FIFOGRP).
        const auto& f = max78000_ctl_fields();
        master_ctl = f.FIFOGRP.with(f.FFIFO_EN.with(master_ctl, 1), 1);
        for (auto& q : accel.state().quadrant) q.ctl = max78000_ctl_fields().CNN_EN.with(q.ctl, 0);
        accel.set_cnn_clock_hz(kBenchCnnHz);
        on_irq = [this](bool level) {
            if (level) irq.notify();
        };
        SC_THREAD(run);
    }

    void inference(FastRun& r, sc_core::sc_time gap) {
        FastFifo& ff = accel.fast_fifo();
        const uint64_t dropped_before = accel.fifo_dropped_words();
        r.started = sc_core::sc_time_stamp();
        write(master_ctl_address, master_ctl);
        for (uint32_t word : frame[0]) {
            if (gap > sc_core::SC_ZERO_TIME) sc_core::wait(gap);
            // As main_riscv.c's load_input(): wait while SR bit 1 (full) is set.
            while (fast_status(ff) & ff.full_mask()) {
                r.saw_full = true;
                sc_core::wait(sc_core::sc_time(1.0 / kBenchCnnHz, sc_core::SC_SEC));
            }
            fast_push(ff, word);
        }
        sc_core::wait(irq);
        r.finished = sc_core::sc_time_stamp();
        r.busy_cycles = accel.busy_cycles();
        r.stall_cycles = accel.last_timing().stall_cycles;
        r.dropped = accel.fifo_dropped_words() - dropped_before;
        r.mismatch = test::compare_expected(vec, accel.state());
        write(master_ctl_address,
              max78000_ctl_fields().CNN_IRQ.with(max78000_ctl_fields().CNN_EN.with(master_ctl, 0), 0));
    }

    void run() {
        inference(fast, sc_core::SC_ZERO_TIME);
        inference(slow, slow_gap);
        sc_core::sc_stop();
    }
};

struct FastOverfill : AccelBench {
    uint32_t status_full = 0, status_empty = 0;
    std::vector<uint32_t> kept;
    SC_HAS_PROCESS(FastOverfill);
    FastOverfill() : AccelBench("fast_overfill") { SC_THREAD(run); }
    void run() {
        FastFifo& ff = accel.fast_fifo();
        status_empty = fast_status(ff);
        for (uint32_t n = 0; n < max78000().fifo_depth; ++n) fast_push(ff, 0x2000 + n);
        status_full = fast_status(ff);
        fast_push(ff, 0xdead);  // full: lost, and counted
        fast_push(ff, 0xbeef);
        kept = accel.fifo_words(0);
    }
};

}  // namespace

TEST_CASE("fast FIFO: a slow feeder stalls the CNN, which still gives the known answer", "[fifo][fast_fifo][stall]") {
    const sc_core::sc_time gap(4, sc_core::SC_US);  // 200 CNN cycles per word at 50 MHz
    FastFeeder b(gap);
    REQUIRE(b.master_ctl != 0);
    REQUIRE(!b.frame.empty());
    for (std::size_t f = 1; f < b.frame.size(); ++f) REQUIRE(b.frame[f].empty());  // one FIFO: what the fast FIFO feeds
    REQUIRE(b.frame[0].size() > max78000().fifo_depth);
    sc_core::sc_start(1, sc_core::SC_SEC);

    for (const FastRun* r : {&b.fast, &b.slow}) {
        REQUIRE(r->finished > r->started);
        CHECK(r->dropped == 0);
        CHECK_FALSE(r->mismatch.has_value());
    }
    CHECK(b.fast.saw_full);
    CHECK_FALSE(b.slow.saw_full);
    CHECK(b.fast.busy_cycles - b.fast.stall_cycles == b.slow.busy_cycles - b.slow.stall_cycles);
    CHECK(b.slow.stall_cycles > b.fast.stall_cycles);
    CHECK(b.slow.finished - b.slow.started >= gap * double(b.frame[0].size()));
    CHECK(b.accel.fast_fifo().pushed_words() == 2 * b.frame[0].size());
}

TEST_CASE("fast FIFO: words pushed into a full FIFO are dropped and counted once each", "[fifo][fast_fifo]") {
    FastOverfill b;
    sc_core::sc_start(1, sc_core::SC_MS);
    CHECK(b.status_empty == fast_status_bit("EMPTY"));  // bit 0
    CHECK(b.status_full == fast_status_bit("FULL"));    // bit 1
    REQUIRE(b.kept.size() == max78000().fifo_depth);
    for (uint32_t n = 0; n < max78000().fifo_depth; ++n) CHECK(b.kept[n] == 0x2000 + n);
    CHECK(b.accel.fast_fifo().dropped_words() == 2);
    CHECK(b.accel.fifo_dropped_words() == 2);  // the run JSON's dropped_words includes them
}

namespace {
struct QuadFanOut : AccelBench {
    std::vector<std::vector<uint32_t>> seen;
    uint32_t targets = 0;
    bool unknown_offset_decoded = true;
    SC_HAS_PROCESS(QuadFanOut);
    QuadFanOut() : AccelBench("fast_quad") { SC_THREAD(run); }
    void run() {
        FastFifo& ff = accel.fast_fifo();
        // Quadrant 0 configured as the master (clock on, not tethered), not started yet: the
        // sequencing rules make it the master, whose QUPAC decides the fan-out.
        const auto& f = max78000_ctl_fields();
        accel.state().quadrant[0].ctl = f.CLK_EN.with(f.QUPAC.with(f.FFIFO_EN.with(0, 1), 1), 1);
        targets = ff.targets();
        fast_push(ff, 0x1234);
        for (uint32_t f = 0; f < max78000().fifo_count; ++f) seen.push_back(accel.fifo_words(f));
        uint32_t unused = 0;
        unknown_offset_decoded = fast_access(ff, tlm::TLM_READ_COMMAND, 0x20, unused) == tlm::TLM_OK_RESPONSE;
    }
};
}  // namespace

namespace {
// One fast FIFO word pushed with the master's REG_CTL = FFIFO_EN | CLK_EN (|
// FIFOGRP when `group`); what each input FIFO then holds.
struct ByteLanes : AccelBench {
    bool group;
    std::vector<std::vector<uint32_t>> seen;
    uint32_t targets = 0;
    SC_HAS_PROCESS(ByteLanes);
    explicit ByteLanes(bool fifo_group) : AccelBench("fast_lanes"), group(fifo_group) { SC_THREAD(run); }
    void run() {
        FastFifo& ff = accel.fast_fifo();
        const auto& f = max78000_ctl_fields();
        accel.state().quadrant[0].ctl = f.FIFOGRP.with(f.CLK_EN.with(f.FFIFO_EN.with(0, 1), 1), group ? 1 : 0);
        targets = ff.targets();
        fast_push(ff, 0x00332211);
        for (uint32_t i = 0; i < max78000().fifo_count; ++i) seen.push_back(accel.fifo_words(i));
    }
};
}  // namespace

// FIFOGRP clear (the generator's --fast-fifo for HWC input on processors 0,
// 16, 32): "each byte of FIFO data is directed to the first little data
// channel of each CNNx16_n processor", so byte b reaches quadrant b's FIFO in
// its lowest byte; set, the word goes whole to processors 0-3 (FIFO 0).
TEST_CASE("fast FIFO: FIFOGRP clear sends byte b of each word to FIFO b", "[fifo][fast_fifo]") {
    ByteLanes b(false);
    sc_core::sc_start(1, sc_core::SC_MS);
    CHECK(b.targets == (1u << max78000().fifo_count) - 1);
    REQUIRE(b.seen.size() == 4);
    CHECK(b.seen[0] == std::vector<uint32_t>{0x11});
    CHECK(b.seen[1] == std::vector<uint32_t>{0x22});
    CHECK(b.seen[2] == std::vector<uint32_t>{0x33});
    CHECK(b.seen[3] == std::vector<uint32_t>{0x00});
}

TEST_CASE("fast FIFO: FIFOGRP set sends the whole word to FIFO 0", "[fifo][fast_fifo]") {
    ByteLanes b(true);
    sc_core::sc_start(1, sc_core::SC_MS);
    CHECK(b.targets == 1u);
    REQUIRE(b.seen.size() == 4);
    CHECK(b.seen[0] == std::vector<uint32_t>{0x00332211});
    for (uint32_t i = 1; i < 4; ++i) CHECK(b.seen[i].empty());
}

TEST_CASE("fast FIFO: with QUPAC every word fans out to all four input FIFOs", "[fifo][fast_fifo]") {
    QuadFanOut b;
    sc_core::sc_start(1, sc_core::SC_MS);
    CHECK(b.targets == (1u << max78000().fifo_count) - 1);
    REQUIRE(b.seen.size() == max78000().fifo_count);
    for (const auto& words : b.seen) CHECK(words == std::vector<uint32_t>{0x1234});
    CHECK(b.accel.fast_fifo().pushed_words() == 1);
    CHECK_FALSE(b.unknown_offset_decoded);  // no register there: the bus answers an error
}

// --fast-fifo-quad on a layer whose output channel count is not a multiple of
// four (the generator's test-fifostream-notvga64x48-hwc-sc: 3 HWC inputs on
// processors 0-2 of every quadrant, 7 outputs). Every quadrant's LREG_MCNT
// spans two kernels (ceil(7 / 4)); XPCH_MAX spans 7 channel positions. Quadrant
// q computes outputs k * 4 + q, so the 8 kernels of the four ranges are one
// output pass of 7 channels, not two passes of 7 (14 channels, the first
// of them written from the wrong kernels).
TEST_CASE("fast FIFO quad fan-out: 7 outputs from ranges of two kernels per quadrant are one pass",
          "[fifo][fast_fifo][engine]") {
    AcceleratorState st(max78000());
    const auto& f = max78000_ctl_fields();
    for (uint32_t q = 0; q < max78000().quadrants; ++q) {
        QuadrantRegisters& r = st.quadrant[q];
        r.ctl = f.CLK_EN.with(f.QUPAC.with(f.FFIFO_EN.with(f.CNN_EN.with(0, 1), 1), 1), 1);
        r.lreg[LREG_RCNT][0] = 1u << 16 | 5;  // 4x4 data, padding 1
        r.lreg[LREG_CCNT][0] = 1u << 16 | 5;
        r.lreg[LREG_ENA][0] = 0x00070007;  // processors 0-2, masks enabled
        r.lreg[LREG_MCNT][0] = 8;          // kernels 0 and 1 (8-bit weights)
    }
    const auto decode = [&](uint32_t channels) {
        for (auto& q : st.quadrant) q.lreg[LREG_LCTL2][0] = (channels - 1) * 8 << 8;  // XPCH_MAX
        std::vector<EngineWarning> warnings;
        return decode_layer(st, 0, {0, 1, 2, 3}, warnings);
    };
    const auto seven = decode(7);
    REQUIRE(seven);
    CHECK(seven->quad_fanout);
    CHECK(seven->output_passes == 1);
    CHECK(seven->channel_positions * seven->output_passes == 7);
    const auto eight = decode(8);  // the -sc2 twin: two kernels in each quadrant
    REQUIRE(eight);
    CHECK(eight->output_passes == 1);
    const auto four = decode(4);  // four channels of one kernel per quadrant: two kernels are two passes
    REQUIRE(four);
    CHECK(four->output_passes == 2);
}
