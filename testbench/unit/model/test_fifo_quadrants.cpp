// FIFO-fed input on processors of several quadrants (docs/fifo.md §7), through
// the bus. A layer of three HWC input channels on processors 0, 16 and 32 (one
// per quadrant) is programmed the way the vendor generator programs a --fifo
// network for that processor map: the layer registers of
// testbench/unit/model/random_layer_gen, no input in data memory, REG_CTL
// FIFO_EN in every used quadrant, layer 0's stream start and REG_IFRM set to
// the frame, and FIFO_CTL composed as izer/backend/max7800x.py composes it
// (FIFO c % 4 enabled for input channel c when processor 16·(c % 4) is used,
// so FIFOs 0, 1 and 2 here).
//
// Each FIFO feeds only its own quadrant, so the layer needs one word per pixel
// in each of FIFOs 0, 1 and 2 (channel k in byte 0 of FIFO k). Firmware that
// packs the three channels into FIFO 0's word and never writes FIFOs 1 and 2
// (the generator's load_input() writes (C + 3) / 4 FIFOs for HWC input) leaves
// the accelerator waiting for FIFOs 1 and 2 while FIFO 0 fills: the deadlock
// the first test reproduces. The second feeds the FIFOs as the hardware reads
// them and compares with testbench/reference.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include <systemc>

#include "model/registers/fifo_registers.h"
#include "model/registers/quadrant_registers.h"
#include "model/registers/register_fields.h"
#include "testbench/reference/reference_layer.h"
#include "testbench/unit/model/accel_test_bench.h"
#include "testbench/unit/model/random_layer_gen.h"

using namespace ai8x;
using ai8x::test::AccelBench;
using ai8x::test::BusWrite;
using ai8x::test::in_data_memory;
using ai8x::test::max78000;
using ai8x::test::RandomLayer;

namespace {

const RegisterFields& fields() { return register_fields(max78000()); }

uint64_t fifo_reg(const std::string& name) {
    return max78000().fifo_regs.base + max78000().registers->fifo_register(name).offset;
}
uint64_t quadrant_reg(int q, const std::string& name) {
    return max78000().quadrant_regs.base + q * max78000().quadrant_regs.quadrant_stride +
           max78000().registers->quadrant_register(name).offset;
}
uint64_t layer0_reg(int q, unsigned kind) {
    return max78000().quadrant_regs.base + q * max78000().quadrant_regs.quadrant_stride +
           max78000().layer_register_offset + uint64_t{kind} * max78000().layer_register_stride;
}
RegField fifo_ctl_field(const std::string& name) {
    const RegisterMap& m = *max78000().registers;
    return m.field(m.fifo_register("FIFO_CTL"), name);
}

// A plain 2-D convolution layer with three input channels, placed on the first
// processor of quadrants 0, 1 and 2.
RandomLayer three_quadrant_layer() {
    const int ppq = static_cast<int>(max78000().processors_per_quadrant);
    for (uint64_t seed = 1; seed < 200000; ++seed) {
        RandomLayer l = test::generate_random_layer(seed, max78000());
        const auto& p = l.params;
        if (p.op != reference::Op::Conv2d || l.chw || l.in_passes != 1 || l.inputs.size() != 1 ||
            l.inputs[0].channels != 3 || p.pool != reference::PoolType::None || p.pool_stride[0] != 1 ||
            p.pool_stride[1] != 1 || l.inputs[0].height * l.inputs[0].width < 2 * int(max78000().fifo_depth))
            continue;
        l.in_processors = {0, ppq, 2 * ppq};
        return l;
    }
    throw std::runtime_error("no three-channel convolution layer among the seeds");
}

// FIFO_CTL as max7800x.py composes it: both levels 2, bit 11 (REQUIRE_FIFO_CPL
// on MAX78000), FIFO c % 4 enabled for each input channel c whose FIFO's first
// processor (16·(c % 4)) the layer uses.
uint32_t generator_fifo_ctl(const RandomLayer& l) {
    const int ppq = static_cast<int>(max78000().processors_per_quadrant);
    uint32_t v = fifo_ctl_field("LEVEL_A").with(0, 2);
    v = fifo_ctl_field("LEVEL_B").with(v, 2);
    v = fifo_ctl_field("FIFO_CPL").with(v, 1);
    for (int c = 0; c < l.inputs[0].channels; ++c) {
        const int fifo = c % static_cast<int>(max78000().fifo_count);
        for (int pr : l.in_processors)
            if (pr == fifo * ppq) v = fields().FIFO_CTL.FIFO_ENA.with_bit(v, static_cast<unsigned>(fifo), true);
    }
    return v;
}

bool is_reg_ctl(uint64_t a) {
    for (int q = 0; q < int(max78000().quadrants); ++q)
        if (a == quadrant_reg(q, "REG_CTL")) return true;
    return false;
}

// The generator's --fifo programming of the layer: no input in data memory,
// FIFO_EN in REG_CTL, layer 0 starts after the whole frame (non-streaming FIFO
// mode: stream start = H·W), REG_IFRM = H·W words per FIFO, FIFO_CTL last.
std::vector<BusWrite> fifo_layer_writes(const RandomLayer& l) {
    std::vector<BusWrite> out;
    for (BusWrite w : test::compose_layer_writes(l, max78000())) {
        if (in_data_memory(w.address)) continue;
        if (is_reg_ctl(w.address)) w.value = fields().REG_CTL.FIFO_EN.with(w.value, 1);
        out.push_back(w);
    }
    const uint32_t frame = static_cast<uint32_t>(l.inputs[0].height * l.inputs[0].width);
    for (int q : test::used_quadrants(l, max78000())) {
        out.push_back({layer0_reg(q, LREG_STREAM1), fields().LREG_STREAM1.STREAM_START.with(0, frame), 4});
        out.push_back({quadrant_reg(q, "REG_IFRM"), fields().REG_IFRM.IFRM.with(0, frame), 4});
    }
    out.push_back({fifo_reg("FIFO_CTL"), generator_fifo_ctl(l), 4});
    return out;
}

std::vector<BusWrite> fifo_start_writes(const RandomLayer& l) {
    std::vector<BusWrite> out = test::compose_start_writes(l, max78000());
    for (BusWrite& w : out) w.value = fields().REG_CTL.FIFO_EN.with(w.value, 1);
    return out;
}

struct QuadrantOutcome {
    bool irq = false;
    bool feeder_stuck = false;      // the feeder waited the whole time limit for FIFO_STAT to clear
    uint64_t words_written = 0;     // words the feeder got into the FIFOs
    uint32_t fifo_stat = 0;         // FIFO_STAT at the end
    uint32_t starved = 0;           // FIFOs the accelerator found empty next to a full one
    std::vector<std::size_t> held;  // words still queued per FIFO at the end
    std::string mismatch;           // differences from testbench/reference (completed runs)
};

// Programs the layer, starts it and feeds `words[f]` into FIFO f as
// load_input() does (word k of every FIFO in turn, waiting while FIFO_STAT
// shows that FIFO full), for at most `limit` of simulated time.
QuadrantOutcome run_fed(const RandomLayer& l, const std::vector<std::vector<uint32_t>>& words, sc_core::sc_time limit) {
    AccelBench bench("fifo_quadrants");
    QuadrantOutcome o;
    bench.on_irq = [&o](bool level) { o.irq = o.irq || level; };
    bench.accel.set_cnn_clock_hz(50e6);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    for (const BusWrite& w : fifo_layer_writes(l))
        REQUIRE(bench.write(w.address, w.value, w.bytes) == tlm::TLM_OK_RESPONSE);
    for (const BusWrite& w : fifo_start_writes(l))
        REQUIRE(bench.write(w.address, w.value, w.bytes) == tlm::TLM_OK_RESPONSE);

    const sc_core::sc_time poll(1, sc_core::SC_US);
    std::size_t longest = 0;
    for (const auto& f : words) longest = std::max(longest, f.size());
    for (std::size_t k = 0; k < longest && !o.feeder_stuck; ++k)
        for (std::size_t f = 0; f < words.size() && !o.feeder_stuck; ++f) {
            if (k >= words[f].size()) continue;
            while (bench.read(fifo_reg("FIFO_STAT")) >> f & 1) {
                if (sc_core::sc_time_stamp() >= limit) {
                    o.feeder_stuck = true;
                    break;
                }
                sc_core::sc_start(poll);
            }
            if (o.feeder_stuck) break;
            REQUIRE(bench.write(max78000().fifo_regs.base + fifo_data_offset(max78000(), uint32_t(f)), words[f][k]) ==
                    tlm::TLM_OK_RESPONSE);
            ++o.words_written;
        }
    while (!o.irq && sc_core::sc_time_stamp() < limit) sc_core::sc_start(poll);
    o.fifo_stat = bench.read(fifo_reg("FIFO_STAT"));
    o.starved = bench.accel.fifo_starved_fifos();
    for (uint32_t f = 0; f < max78000().fifo_count; ++f) o.held.push_back(bench.accel.fifo_words(f).size());
    if (!o.irq) return o;
    const reference::Tensor expect = reference::run_layer(l.params, l.inputs, l.weights, l.bias);
    std::ostringstream diff;
    int bad = 0;
    for (int m = 0; m < expect.channels; ++m)
        for (int y = 0; y < expect.height; ++y)
            for (int x = 0; x < expect.width; ++x) {
                const test::OutputLocation loc = test::output_location(l, max78000(), m, y * expect.width + x);
                const uint32_t word = bench.read(loc.address);
                const int64_t got = l.params.wide_output ? int64_t{static_cast<int32_t>(word)}
                                                         : int64_t{static_cast<int8_t>(word >> (8 * loc.lane))};
                if (got != expect.at(m, y, x) && bad++ < 5)
                    diff << "channel " << m << " (" << y << "," << x << "): got " << got << ", reference "
                         << expect.at(m, y, x) << "\n";
            }
    if (bad) diff << bad << " of " << expect.size() << " values differ\n";
    o.mismatch = diff.str();
    return o;
}

uint32_t byte_of(int64_t v, unsigned lane) { return uint32_t{static_cast<uint8_t>(v)} << (8 * lane); }

}  // namespace

TEST_CASE("the generator's FIFO_CTL for HWC channels on processors 0/16/32 enables FIFOs 0 to 2", "[fifo][quadrants]") {
    const RandomLayer l = three_quadrant_layer();
    const uint32_t v = generator_fifo_ctl(l);
    CHECK(fields().FIFO_CTL.FIFO_ENA.get(v) == 0x7u);
    CHECK(v == 0x7908u);  // the value generated cnn.c writes for this map (max7800x.py composition)
}

TEST_CASE("HWC input packed into FIFO 0 for processors 0/16/32 deadlocks as FIFOs 1 and 2 never get a word",
          "[fifo][quadrants]") {
    const RandomLayer l = three_quadrant_layer();
    INFO(l.describe());
    const reference::Tensor& in = l.inputs[0];
    std::vector<std::vector<uint32_t>> words(1);  // load_input(): (3 + 3) / 4 = one FIFO
    for (int y = 0; y < in.height; ++y)
        for (int x = 0; x < in.width; ++x)
            words[0].push_back(byte_of(in.at(0, y, x), 0) | byte_of(in.at(1, y, x), 1) | byte_of(in.at(2, y, x), 2));
    const QuadrantOutcome o = run_fed(l, words, sc_core::sc_time(2, sc_core::SC_MS));
    CHECK_FALSE(o.irq);
    CHECK(o.feeder_stuck);  // load_input() waits for FIFO 0 space forever
    CHECK(o.fifo_stat == 1u);
    REQUIRE(o.held.size() >= 3);
    CHECK(o.held[0] == max78000().fifo_depth);  // the accelerator took nothing out of FIFO 0 ...
    CHECK(o.held[1] == 0);                      // ... because the same pixel's words of FIFOs 1 and 2 never came
    CHECK(o.held[2] == 0);
    CHECK(o.words_written == max78000().fifo_depth);
    CHECK(o.starved == 0x6u);  // the model names FIFOs 1 and 2 as the ones it waits for
}

TEST_CASE("HWC input on processors 0/16/32 fed one channel per FIFO matches the reference", "[fifo][quadrants]") {
    const RandomLayer l = three_quadrant_layer();
    INFO(l.describe());
    const reference::Tensor& in = l.inputs[0];
    std::vector<std::vector<uint32_t>> words(3);
    for (int y = 0; y < in.height; ++y)
        for (int x = 0; x < in.width; ++x)
            for (int k = 0; k < 3; ++k) words[k].push_back(byte_of(in.at(k, y, x), 0));  // processor 16k: byte 0
    const QuadrantOutcome o = run_fed(l, words, sc_core::sc_time(20, sc_core::SC_MS));
    REQUIRE(o.irq);
    CHECK_FALSE(o.feeder_stuck);
    CHECK(o.words_written == 3u * in.height * in.width);
    INFO(o.mismatch);
    CHECK(o.mismatch.empty());
    CHECK(o.held == std::vector<std::size_t>(max78000().fifo_count, 0));
    CHECK(o.starved == 0u);
}
