// Reset, power, clock and memory self test of the quadrants, through the bus
// (docs/power-and-reset.md): soft reset, power removal with and without memory
// retention, isolation, REG_SRAM sleep and power-down, AON_CTL kernel power-down,
// starts without a clock, REG_SRAM_TEST.
#include <catch2/catch.hpp>

#include "model/power/power_fields.h"
#include "model/power/quadrant_memories.h"
#include "model/registers/quadrant_registers.h"
#include "testbench/unit/log_capture.h"
#include "testbench/unit/model/accel_test_bench.h"

using namespace ai8x;
using ai8x::test::AccelBench;
using ai8x::test::lreg;
using ai8x::test::max78000;
using ai8x::test::qreg;

namespace {

// The datasheet's quadrant register offsets and REG_CTL bits, written down
// here on their own so the test does not read them from the description it checks.
constexpr uint64_t REG_CTL_OFFSET = 0x0, REG_SRAM_OFFSET = 0x4, REG_LCNT_MAX_OFFSET = 0x8, REG_SRAM_TEST_OFFSET = 0xc;
namespace ctl {
constexpr uint32_t kCnnEnable = 1u << 0, kCnnIrq = 1u << 12;
}  // namespace ctl
// Word `w` of the first data memory instance of quadrant q.
uint64_t data_word(uint32_t q, uint32_t w) {
    return max78000().data_sram.base + q * max78000().data_sram.quadrant_stride + 4 * w;
}
// Entry `e` of quadrant q's bias memory (one 32-bit bus word per entry).
uint64_t bias_entry(uint32_t q, uint32_t e) {
    return max78000().bias_mem.base + q * max78000().bias_mem.quadrant_stride + 4 * e;
}
// Word `w` of the TRAM of quadrant q's first processor.
uint64_t tram_word(uint32_t q, uint32_t w) {
    return max78000().tram.base + q * max78000().tram.quadrant_stride + 4 * w;
}
uint32_t first_data_instance(uint32_t q) { return q * max78000().data_sram.instances_per_quadrant; }
uint32_t first_processor(uint32_t q) { return q * max78000().processors_per_quadrant; }

constexpr uint64_t kAonCtl = 0x50001000;
constexpr uint32_t kStopSm = 0x00100008;  // REG_CTL as cnn_init() leaves it: clocks, mexpress

// Fills quadrant q with recognisable registers and memory words through the bus.
void load_quadrant(AccelBench& b, uint32_t q) {
    REQUIRE(b.write(qreg(q, REG_CTL_OFFSET), kStopSm) == tlm::TLM_OK_RESPONSE);
    REQUIRE(b.write(qreg(q, REG_SRAM_OFFSET), 0x40e) == tlm::TLM_OK_RESPONSE);
    REQUIRE(b.write(lreg(q, LREG_RCNT, 3), 0x1c + q) == tlm::TLM_OK_RESPONSE);
    REQUIRE(b.write(data_word(q, 5), 0x11223344u + q) == tlm::TLM_OK_RESPONSE);
    REQUIRE(b.write(bias_entry(q, 7), 0x40 + q) == tlm::TLM_OK_RESPONSE);
    REQUIRE(b.write(tram_word(q, 2), 0x123 + q) == tlm::TLM_OK_RESPONSE);
    // A weight word, as either loading protocol leaves it.
    KernelArray& k = b.accel.state().kernel_arrays[first_processor(q)];
    k.words[9].fill(uint8_t(0x30 + q));
    k.written[9] = 1;
}

// Data, bias and TRAM words of load_quadrant (the memories of the quadrant's power domain).
void check_domain_memories_hold(AccelBench& b, uint32_t q) {
    CHECK(b.read(data_word(q, 5)) == 0x11223344u + q);
    CHECK((b.read(bias_entry(q, 7)) & 0xff) == 0x40 + q);
    CHECK(b.accel.state().tram[first_processor(q)][2] == 0x123 + q);  // TRAM is not readable by the bus
}

void check_memories_hold(AccelBench& b, uint32_t q) {
    check_domain_memories_hold(b, q);
    CHECK(b.accel.state().kernel_arrays[first_processor(q)].words[9][0] == 0x30 + q);
}

void check_registers_hold(AccelBench& b, uint32_t q) {
    CHECK(b.read(qreg(q, REG_CTL_OFFSET)) == kStopSm);
    CHECK(b.read(qreg(q, REG_SRAM_OFFSET)) == 0x40eu);
    CHECK(b.read(lreg(q, LREG_RCNT, 3)) == 0x1c + q);
}
}  // namespace

TEST_CASE("soft reset returns a quadrant's registers to reset values and keeps its memories", "[power]") {
    AccelBench b;
    for (uint32_t q : {0u, 1u}) load_quadrant(b, q);
    PowerControl& p = b.accel.power();
    p.set_domain_reset(0x2);
    p.set_domain_reset(0x0);

    CHECK(b.read(qreg(1, REG_CTL_OFFSET)) == 0u);
    CHECK(b.read(qreg(1, REG_SRAM_OFFSET)) == 0u);
    CHECK(b.read(lreg(1, LREG_RCNT, 3)) == 0u);
    check_memories_hold(b, 1);
    CHECK(b.accel.state().data_written[first_data_instance(1)][5] == 1);
    check_registers_hold(b, 0);  // quadrant 0 untouched
    check_memories_hold(b, 0);
}

TEST_CASE("soft reset clears a pending completion interrupt", "[power]") {
    AccelBench b;
    bool irq = false;
    b.on_irq = [&](bool level) { irq = level; };
    REQUIRE(b.write(qreg(2, REG_CTL_OFFSET), kStopSm | ctl::kCnnIrq) == tlm::TLM_OK_RESPONSE);
    REQUIRE(irq);
    b.accel.power().set_domain_reset(0x4);
    CHECK_FALSE(irq);
    CHECK(b.accel.state().quadrant[2].ctl == 0u);
}

TEST_CASE("a quadrant held in reset ignores writes and reads 0", "[power]") {
    AccelBench b;
    load_quadrant(b, 3);
    b.accel.power().set_domain_reset(0x8);
    CHECK(b.write(qreg(3, REG_CTL_OFFSET), kStopSm) == tlm::TLM_OK_RESPONSE);
    CHECK(b.accel.state().quadrant[3].ctl == 0u);
    CHECK(b.read(data_word(3, 5)) == 0u);                                        // read returns 0 ...
    CHECK(b.accel.state().data_sram[first_data_instance(3)][5] == 0x11223347u);  // ... the word is kept
    b.accel.power().set_domain_reset(0x0);
    CHECK(b.read(data_word(3, 5)) == 0x11223347u);
}

TEST_CASE("power removed from a quadrant loses its registers and its data, TRAM and bias but not its weights",
          "[power]") {
    AccelBench b;
    for (uint32_t q : {0u, 2u}) load_quadrant(b, q);
    PowerControl& p = b.accel.power();
    // cnn_disable() for quadrant 2 only: reset, isolate, power off, memories off; then cnn_enable().
    p.set_domain_reset(0x4);
    p.set_isolation(0x4);
    p.set_power_enable(0xb);
    p.set_memory_enable(0xb);
    p.set_domain_reset(0x0);
    p.set_memory_enable(0xf);
    p.set_power_enable(0xf);
    p.set_isolation(0x0);

    const AcceleratorState& s = b.accel.state();
    CHECK(b.read(data_word(2, 5)) == kLostDataWord);
    CHECK(s.data_written[first_data_instance(2)][5] == 0);
    CHECK(b.read(bias_entry(2, 7)) == kLostByte);
    CHECK(s.bias_written[2][7] == 0);
    CHECK(s.tram[first_processor(2)][2] == kLostTramWord);
    CHECK(b.read(qreg(2, REG_CTL_OFFSET)) == 0u);
    CHECK(b.read(lreg(2, LREG_RCNT, 3)) == 0u);
    // README (cnn_load_bias): weights, unlike bias values, are retained.
    CHECK(s.kernel_arrays[first_processor(2)].words[9][0] == 0x32);
    CHECK(s.kernel_written[first_processor(2)][9] == 1);
    check_registers_hold(b, 0);
    check_memories_hold(b, 0);
}

TEST_CASE("memories enabled through GCFR REG1 keep their contents while the quadrant is unpowered", "[power]") {
    AccelBench b;
    load_quadrant(b, 1);
    PowerControl& p = b.accel.power();
    p.set_power_enable(0xd);  // quadrant 1 off, its memory enable (REG1) still set
    p.set_power_enable(0xf);
    check_memories_hold(b, 1);
    CHECK(b.read(qreg(1, REG_CTL_OFFSET)) == 0u);  // the logic lost its registers
}

TEST_CASE("an unpowered or isolated quadrant answers with a bus error while the others work", "[power]") {
    AccelBench b;
    PowerControl& p = b.accel.power();
    p.set_power_enable(0xe);
    CHECK(b.read_status(data_word(0, 1)) == tlm::TLM_GENERIC_ERROR_RESPONSE);
    CHECK(b.write(qreg(0, REG_CTL_OFFSET), kStopSm) == tlm::TLM_GENERIC_ERROR_RESPONSE);
    CHECK(b.read_status(qreg(1, REG_CTL_OFFSET)) == tlm::TLM_OK_RESPONSE);
    p.set_power_enable(0xf);
    p.set_isolation(0x2);
    CHECK(b.read_status(bias_entry(1, 0)) == tlm::TLM_GENERIC_ERROR_RESPONSE);
    CHECK(b.read_status(qreg(0, REG_CTL_OFFSET)) == tlm::TLM_OK_RESPONSE);
    CHECK(b.read_status(kAonCtl) == tlm::TLM_OK_RESPONSE);  // always-on block
    p.set_isolation(0x0);
    CHECK(b.read_status(bias_entry(1, 0)) == tlm::TLM_OK_RESPONSE);
}

TEST_CASE("REG_SRAM light and deep sleep keep contents and refuse accesses but power-down loses them", "[power]") {
    AccelBench b;
    load_quadrant(b, 0);
    const uint32_t lsdram = 1u << 19, ds = 1u << 15, pd = 1u << 16;
    REQUIRE(b.write(qreg(0, REG_SRAM_OFFSET), 0x40e | lsdram) == tlm::TLM_OK_RESPONSE);
    CHECK(b.read(data_word(0, 5)) == 0u);                             // data memory asleep
    CHECK(b.write(data_word(0, 5), 0x5555) == tlm::TLM_OK_RESPONSE);  // ignored
    CHECK((b.read(bias_entry(0, 7)) & 0xff) == 0x40u);                // bias memory awake
    REQUIRE(b.write(qreg(0, REG_SRAM_OFFSET), 0x40e | ds) == tlm::TLM_OK_RESPONSE);
    CHECK(b.read(bias_entry(0, 7)) == 0u);
    REQUIRE(b.write(qreg(0, REG_SRAM_OFFSET), 0x40e) == tlm::TLM_OK_RESPONSE);
    check_memories_hold(b, 0);

    REQUIRE(b.write(qreg(0, REG_SRAM_OFFSET), 0x40e | pd) == tlm::TLM_OK_RESPONSE);
    REQUIRE(b.write(qreg(0, REG_SRAM_OFFSET), 0x40e) == tlm::TLM_OK_RESPONSE);
    CHECK(b.read(data_word(0, 5)) == kLostDataWord);
    CHECK(b.accel.state().data_written[0][5] == 0);
    CHECK(b.accel.state().kernel_arrays[0].words[9][0] == kLostByte);
    CHECK(b.accel.state().kernel_written[0][9] == 0);
}

TEST_CASE("AON_CTL power-down of a quadrant's kernel memories loses the weights", "[power]") {
    AccelBench b;
    for (uint32_t q : {0u, 1u}) load_quadrant(b, q);
    REQUIRE(b.write(kAonCtl, 1u << 13) == tlm::TLM_OK_RESPONSE);  // --powerdown: quadrant 1 unused
    const AcceleratorState& s = b.accel.state();
    CHECK(s.kernel_arrays[first_processor(1)].words[9][0] == kLostByte);
    CHECK(s.kernel_written[first_processor(1)][9] == 0);
    CHECK(s.kernel_arrays[first_processor(0)].words[9][0] == 0x30);
    check_domain_memories_hold(b, 1);  // data, TRAM and bias are not in the always-on domain
}

namespace {
// Starts an empty one-layer program on quadrant 0 with a clock missing, then
// supplies the clock; records when the completion interrupt rises.
struct NoClockDriver : AccelBench {
    enum class Missing { QuadrantClock, PeripheralClock } missing;
    sc_core::sc_time clock_given_at, irq_at;
    bool busy_without_clock = false, irq_without_clock = false;
    SC_HAS_PROCESS(NoClockDriver);
    explicit NoClockDriver(Missing m) : AccelBench("noclk"), missing(m) {
        on_irq = [this](bool level) {
            if (level) irq_at = sc_core::sc_time_stamp();
        };
        SC_THREAD(run);
    }
    void run() {
        const uint32_t clk_en = 1u << 3;
        uint32_t ctl_value = 0x00100000 | clk_en;
        if (missing == Missing::QuadrantClock)
            ctl_value &= ~clk_en;
        else
            accel.power().set_peripheral_clock(false);
        write(qreg(0, REG_LCNT_MAX_OFFSET), 0);
        write(qreg(0, REG_CTL_OFFSET), ctl_value);
        write(qreg(0, REG_CTL_OFFSET), ctl_value | ctl::kCnnEnable);
        sc_core::wait(200, sc_core::SC_US);
        busy_without_clock = accel.busy();
        irq_without_clock = irq_at != sc_core::SC_ZERO_TIME;
        clock_given_at = sc_core::sc_time_stamp();
        if (missing == Missing::QuadrantClock)
            write(qreg(0, REG_CTL_OFFSET), ctl_value | clk_en | ctl::kCnnEnable);
        else
            accel.power().set_peripheral_clock(true);
    }
};
}  // namespace

TEST_CASE("a start without the quadrant clock (REG_CTL.CLK_EN) does nothing until the clock runs", "[power]") {
    NoClockDriver d(NoClockDriver::Missing::QuadrantClock);
    d.accel.set_cnn_clock_hz(50e6);
    sc_core::sc_start(1, sc_core::SC_MS);
    CHECK_FALSE(d.busy_without_clock);
    CHECK_FALSE(d.irq_without_clock);
    CHECK(d.irq_at > d.clock_given_at);
    CHECK((d.accel.state().quadrant[0].ctl & ctl::kCnnIrq) != 0);
}

TEST_CASE("a start with the CNN peripheral clock gated does nothing until the clock runs", "[power]") {
    NoClockDriver d(NoClockDriver::Missing::PeripheralClock);
    d.accel.set_cnn_clock_hz(50e6);
    sc_core::sc_start(1, sc_core::SC_MS);
    CHECK_FALSE(d.busy_without_clock);
    CHECK_FALSE(d.irq_without_clock);
    CHECK(d.irq_at > d.clock_given_at);
}

namespace {
// Starts a long run on quadrant 0 (a slow clock) and soft-resets the quadrant during it.
struct ResetDuringRunDriver : AccelBench {
    bool busy_at_reset = false;
    bool irq_seen = false;
    SC_HAS_PROCESS(ResetDuringRunDriver);
    ResetDuringRunDriver() : AccelBench("rst") {
        on_irq = [this](bool level) { irq_seen |= level; };
        SC_THREAD(run);
    }
    void run() {
        write(qreg(0, REG_CTL_OFFSET), kStopSm);
        write(qreg(0, REG_CTL_OFFSET), kStopSm | ctl::kCnnEnable);
        sc_core::wait(sc_core::SC_ZERO_TIME);
        sc_core::wait(sc_core::SC_ZERO_TIME);
        busy_at_reset = accel.busy();
        accel.power().set_domain_reset(0x1);
        accel.power().set_domain_reset(0x0);
    }
};
}  // namespace

TEST_CASE("a quadrant reset during an inference gets no completion", "[power]") {
    ResetDuringRunDriver d;
    d.accel.set_cnn_clock_hz(1e3);  // the empty program's cycles take milliseconds
    sc_core::sc_start(1, sc_core::SC_SEC);
    REQUIRE(d.busy_at_reset);
    CHECK_FALSE(d.irq_seen);
    CHECK(d.accel.state().quadrant[0].ctl == 0u);
}

TEST_CASE("REG_SRAM_TEST self tests report done and passed and zero their memories until 0 ends them", "[power]") {
    using namespace power_fields;
    AccelBench b;
    load_quadrant(b, 1);
    const uint64_t test = qreg(1, REG_SRAM_TEST_OFFSET);
    const struct {
        MemoryKind kind;
        uint32_t start, wait, fail;  // the generator's BIST_*_EX, BIST_*_WAIT and BIST_*_ERR for MAX78000
    } tests[] = {{MemoryKind::Data, 1u << 0, 1u << 27 | 1u << 18, 1u << 14},
                 {MemoryKind::Kernel, 1u << 2, 1u << 27 | 1u << 19, 1u << 15},
                 {MemoryKind::Tram, 1u << 4, 1u << 27 | 1u << 20, 1u << 16},
                 {MemoryKind::Bias, 1u << 6, 1u << 27 | 1u << 21, 1u << 17}};
    for (const auto& t : tests) {
        REQUIRE(b.write(test, t.start) == tlm::TLM_OK_RESPONSE);
        // The firmware's wait loop, bounded here.
        int polls = 0;
        while ((b.read(test) & t.wait) != t.wait && polls < 100) ++polls;
        CHECK(polls == 0);
        CHECK((b.read(test) & t.fail) == 0u);
        REQUIRE(b.write(test, 0) == tlm::TLM_OK_RESPONSE);
        CHECK(b.read(test) == 0u);
    }
    const AcceleratorState& s = b.accel.state();
    CHECK(b.read(data_word(1, 5)) == 0u);
    CHECK(s.data_written[first_data_instance(1)][5] == 1);  // zero is known content
    CHECK(s.kernel_arrays[first_processor(1)].words[9][0] == 0);
    CHECK(s.tram[first_processor(1)][2] == 0);
    CHECK(b.read(bias_entry(1, 7)) == 0u);
    // Quadrant 0 was not tested.
    load_quadrant(b, 0);
    check_memories_hold(b, 0);
}

TEST_CASE("each quadrant's memory ports state the quadrant and memory their accesses reach", "[power]") {
    AccelBench b;
    const std::vector<CnnBlock> blocks{CnnBlock::DataSram, CnnBlock::Tram, CnnBlock::Bias, CnnBlock::Kernel};
    for (uint32_t q = 0; q < b.accel.quadrant_count(); ++q) {
        const auto& ports = b.accel.quadrant(q).memory_ports();
        REQUIRE(ports.size() == blocks.size());
        for (std::size_t i = 0; i < ports.size(); ++i) {
            INFO(ports[i]->name());
            CHECK(ports[i]->scope().quadrant == int(q));
            CHECK(ports[i]->scope().block == blocks[i]);
        }
    }
}

TEST_CASE("refused accesses to an unpowered quadrant: one warning per reason, the rest counted at the end", "[power]") {
    ai8x::test::LogCapture log;
    {
        AccelBench b;
        b.accel.power().set_power_enable(0xe);
        for (int i = 0; i < 10; ++i) CHECK(b.read_status(data_word(0, i)) == tlm::TLM_GENERIC_ERROR_RESPONSE);
        CHECK(log.count("warning: ") == 1);
    }
    CHECK(log.count("warning: ") == 2);
    CHECK(log.count(": 9 more time(s) after the first") == 1);
}

TEST_CASE("each quadrant owns its power domain, and REG_SRAM.PD of one quadrant loses that quadrant's memories only",
          "[power]") {
    AccelBench b;
    for (uint32_t q = 0; q < b.accel.quadrant_count(); ++q) {
        Quadrant& quad = b.accel.quadrant(q);
        CHECK(std::string(quad.power().name()) == std::string(quad.name()) + ".power");
        CHECK(&b.accel.power().domain(q) == &quad.power());
    }
    for (uint32_t q : {0u, 1u}) load_quadrant(b, q);
    const uint32_t pd = 1u << 16;
    REQUIRE(b.write(qreg(1, REG_SRAM_OFFSET), 0x40e | pd) == tlm::TLM_OK_RESPONSE);
    REQUIRE(b.write(qreg(1, REG_SRAM_OFFSET), 0x40e) == tlm::TLM_OK_RESPONSE);
    CHECK(b.read(data_word(1, 5)) == kLostDataWord);
    check_memories_hold(b, 0);
    // The GCFR bit of quadrant 2 reaches quadrant 2's domain alone.
    b.accel.power().set_isolation(0x4);
    CHECK(b.accel.quadrant(2).power().isolated());
    CHECK_FALSE(b.accel.quadrant(1).power().isolated());
    CHECK(b.read_status(data_word(2, 0)) == tlm::TLM_GENERIC_ERROR_RESPONSE);
}
