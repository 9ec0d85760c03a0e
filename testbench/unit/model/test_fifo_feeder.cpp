// The accelerator against a CPU-like feeder on the bus (docs/fifo.md §5-§8):
// one FIFO vector (t-test-fifo-hwc, applied directly to the state) run twice in
// one simulation, first fed as fast as FIFO_STAT allows, then by a feeder that
// waits before every word. Both runs must give the known answer (no word lost
// or invented); the slow one stalls and finishes later by the feeder's delay,
// while the accelerator's own work stays the same.
#include <catch2/catch.hpp>

#include <systemc>

#include "model/registers/fifo_registers.h"
#include "model/registers/quadrant_registers.h"
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

// Register offsets and fields from the device description.
uint64_t fifo_stat_offset() { return max78000().registers->fifo_register("FIFO_STAT").offset; }
uint64_t fifo_ctl_offset() { return max78000().registers->fifo_register("FIFO_CTL").offset; }

struct RunRecord {
    sc_core::sc_time started, finished, last_push;
    uint64_t busy_cycles = 0, stall_cycles = 0, dropped = 0;
    bool saw_full = false;
    std::optional<test::Mismatch> mismatch;
};

struct Feeder : AccelBench {
    test::GoldenVector vec = test::load_vector(AI8XSIM_SHARED_DIR "/vectors/t-test-fifo-hwc");
    std::vector<std::vector<uint32_t>> frame;
    uint32_t master_ctl = 0;
    uint64_t master_ctl_address = 0;
    sc_core::sc_time slow_gap;
    RunRecord fast, slow;
    sc_core::sc_event irq;

    SC_HAS_PROCESS(Feeder);
    Feeder(sc_core::sc_time gap) : AccelBench("feeder"), slow_gap(gap) {
        frame = test::fifo_frame(vec, max78000());
        test::apply_vector(vec, accel.state());
        // The start write of cnn_start() goes through the bus below, so the
        // sequencer sees its rising edge: take it out of the applied state.
        const test::ControlWrite start = test::start_write(vec, max78000());
        master_ctl = start.value, master_ctl_address = start.address;
        for (auto& q : accel.state().quadrant) q.ctl = max78000_ctl_fields().CNN_EN.with(q.ctl, 0);
        accel.set_cnn_clock_hz(kBenchCnnHz);
        on_irq = [this](bool level) {
            if (level) irq.notify();
        };
        SC_THREAD(run);
    }

    void inference(RunRecord& r, sc_core::sc_time gap) {
        const uint64_t fifo_base = max78000().fifo_regs.base;
        const uint64_t dropped_before = accel.fifo_dropped_words();
        r.started = sc_core::sc_time_stamp();
        write(master_ctl_address, master_ctl);
        for (std::size_t k = 0;; ++k) {
            bool any = false;
            for (std::size_t f = 0; f < frame.size(); ++f) {
                if (k >= frame[f].size()) continue;
                any = true;
                if (gap > sc_core::SC_ZERO_TIME) sc_core::wait(gap);
                // Poll as load_input() does: wait while this FIFO's full flag is set.
                while (read(fifo_base + fifo_stat_offset()) >> f & 1) {
                    r.saw_full = true;
                    // One CNN cycle, so that pushes land on cycle edges and the
                    // stall cycles the model counts add up exactly.
                    sc_core::wait(sc_core::sc_time(1.0 / kBenchCnnHz, sc_core::SC_SEC));
                }
                write(fifo_base + fifo_data_offset(max78000(), uint32_t(f)), frame[f][k]);
            }
            if (!any) break;
        }
        r.last_push = sc_core::sc_time_stamp();
        sc_core::wait(irq);
        r.finished = sc_core::sc_time_stamp();
        r.busy_cycles = accel.busy_cycles();
        r.stall_cycles = accel.last_timing().stall_cycles;
        r.dropped = accel.fifo_dropped_words() - dropped_before;
        r.mismatch = test::compare_expected(vec, accel.state());
        // Acknowledge and stop, as the firmware's interrupt handler and cnn_stop() do.
        write(master_ctl_address,
              max78000_ctl_fields().CNN_IRQ.with(max78000_ctl_fields().CNN_EN.with(master_ctl, 0), 0));
    }

    void run() {
        inference(fast, sc_core::SC_ZERO_TIME);
        inference(slow, slow_gap);
        sc_core::sc_stop();
    }
};

}  // namespace

TEST_CASE("a too-slow feeder stalls the accelerator, which finishes later by the feeder's delay", "[fifo][stall]") {
    const sc_core::sc_time gap(4, sc_core::SC_US);  // 200 CNN cycles per word at 50 MHz
    Feeder b(gap);
    REQUIRE(b.master_ctl != 0);
    REQUIRE(b.frame.size() >= 1);
    const std::size_t words = b.frame[0].size();
    REQUIRE(words > max78000().fifo_depth);  // the fast feeder must meet a full FIFO
    sc_core::sc_start(1, sc_core::SC_SEC);

    for (const RunRecord* r : {&b.fast, &b.slow}) {
        CHECK(r->finished > r->started);
        CHECK(r->dropped == 0);
        CHECK_FALSE(r->mismatch.has_value());  // every word arrived once, in order
        // Completion comes exactly the reported busy cycles after the start.
        CHECK(r->finished - r->started == sc_core::sc_time(double(r->busy_cycles) / kBenchCnnHz, sc_core::SC_SEC));
    }
    CHECK(b.fast.saw_full);
    CHECK_FALSE(b.slow.saw_full);
    // The accelerator's own work is identical; only the waiting differs.
    CHECK(b.fast.busy_cycles - b.fast.stall_cycles == b.slow.busy_cycles - b.slow.stall_cycles);
    CHECK(b.slow.stall_cycles > b.fast.stall_cycles);
    // The slow run cannot end before its last word arrived, and ends after it
    // within the work that remains once the frame is complete.
    CHECK(b.slow.finished >= b.slow.last_push);
    CHECK(b.slow.last_push - b.slow.started >= gap * double(words));
    CHECK(b.slow.finished - b.slow.last_push <=
          sc_core::sc_time(double(b.fast.busy_cycles) / kBenchCnnHz, sc_core::SC_SEC));
    CHECK(b.slow.finished - b.slow.started > b.fast.finished - b.fast.started);
}

TEST_CASE("a feeder off the CNN clock edges: completion still comes exactly the counted cycles after the start",
          "[fifo][stall]") {
    // 200.5 CNN cycles per word: every push lands between two CNN clock edges. The
    // accelerator sees a word at the next edge, and those stall cycles elapse like
    // any other, so SystemC time and the cycle count stay one clock (the firmware's
    // stopwatch measures the same interval as cnn_cycles).
    const sc_core::sc_time gap(4.01, sc_core::SC_US);
    Feeder b(gap);
    REQUIRE(b.master_ctl != 0);
    sc_core::sc_start(1, sc_core::SC_SEC);
    REQUIRE(b.slow.finished > b.slow.started);
    CHECK(b.slow.dropped == 0);
    CHECK_FALSE(b.slow.mismatch.has_value());
    CHECK(b.slow.stall_cycles > 0);
    CHECK(b.slow.finished - b.slow.started ==
          sc_core::sc_time(double(b.slow.busy_cycles) / kBenchCnnHz, sc_core::SC_SEC));
    // Each word waits for the edge after its push, so the stalls cannot come to less
    // than the feeder's own time per word allows.
    CHECK(b.slow.busy_cycles * 1.0 / kBenchCnnHz >= (b.slow.last_push - b.slow.started).to_seconds());
}

namespace {
struct Overfill : AccelBench {
    uint32_t stat_at_depth = 0, stat_before = 0;
    std::vector<uint32_t> kept;
    SC_HAS_PROCESS(Overfill);
    Overfill() : AccelBench("overfill") { SC_THREAD(run); }
    void run() {
        const uint64_t base = max78000().fifo_regs.base;
        const uint32_t depth = max78000().fifo_depth;
        constexpr unsigned kFifo = 2;
        write(base + fifo_ctl_offset(), register_fields(max78000()).FIFO_CTL.FIFO_ENA.with(0, 1u << kFifo));
        for (uint32_t n = 0; n < depth; ++n) {
            if (n + 1 == depth) stat_before = read(base + fifo_stat_offset());
            write(base + fifo_data_offset(max78000(), kFifo), 0x1000 + n);
        }
        stat_at_depth = read(base + fifo_stat_offset());
        write(base + fifo_data_offset(max78000(), kFifo), 0xdead);  // lost, as on silicon
        write(base + fifo_data_offset(max78000(), 0), 0xbeef);      // FIFO 0 is disabled: lost too
        kept = accel.fifo_words(kFifo);
    }
};
}  // namespace

TEST_CASE("FIFO_STAT shows full at the configured depth, and overflow and disabled writes are dropped", "[fifo]") {
    Overfill b;
    sc_core::sc_start(1, sc_core::SC_MS);
    const uint32_t depth = max78000().fifo_depth;
    CHECK(b.stat_before == 0u);
    CHECK(b.stat_at_depth == 1u << 2);
    REQUIRE(b.kept.size() == depth);
    for (uint32_t n = 0; n < depth; ++n) CHECK(b.kept[n] == 0x1000 + n);
    CHECK(b.accel.fifo_dropped_words() == 2);
    CHECK(b.accel.fifo_words(0).empty());
}
