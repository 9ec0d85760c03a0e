// Randomized register-level differential test: random legal layers are
// programmed through the bus into the Accelerator exactly as generated
// firmware would program them, run by the sequencer, read back through the
// bus and compared with testbench/reference computed from the plain tensors.
//
// Seeds are fixed per batch so CI is reproducible; a failure prints the seed,
// the layer and the command that reruns only that seed:
//   AI8XSIM_SEED=<seed> build/<dir>/unit_tests_model "random layers*"
// AI8XSIM_RANDOM_BASE=<n> shifts every batch to a fresh range of seeds.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <map>
#include <random>
#include <sstream>
#include <string>

#include "testbench/reference/reference_layer.h"
#include "testbench/unit/model/accel_test_bench.h"
#include "testbench/unit/model/random_layer_gen.h"

using namespace ai8x;
using ai8x::test::AccelBench;
using ai8x::test::max78000;
using ai8x::test::max78002;
using ai8x::test::RandomLayer;

namespace {

constexpr int kLayersPerBatch = 110;  // 5 batches: 550 layers per run and device

uint64_t env_u64(const char* name, uint64_t fallback, bool& present) {
    const char* v = std::getenv(name);
    present = v && *v;
    return present ? std::strtoull(v, nullptr, 0) : fallback;
}

// A snoop unit watching the layer's output (model/snoop.h), composed from the
// reference result: the register writes before the start and the accumulators
// expected afterwards. Written words are those the reference output fills; the
// unit reads them as the device does, after the whole word is written.
struct SnoopCheck {
    std::vector<test::BusWrite> writes;
    uint32_t acc = 0, hit = 0, max = 0, am = 0;
    std::string describe;
};

SnoopCheck compose_snoop(const RandomLayer& l, const DeviceConfig& cfg, const reference::Tensor& expect) {
    SnoopCheck sc;
    // Output words by bus address, lanes from the reference (unwritten lanes stay 0 after reset).
    std::map<uint64_t, uint32_t> words;
    for (int m = 0; m < expect.channels; ++m)
        for (int px = 0; px < expect.height * expect.width; ++px) {
            const test::OutputLocation loc = test::output_location(l, cfg, m, px);
            const int64_t v = expect.at(m, px / expect.width, px % expect.width);
            words[loc.address] |=
                l.params.wide_output ? static_cast<uint32_t>(v) : uint32_t{static_cast<uint8_t>(v)} << (8 * loc.lane);
        }
    // The snoop's address: 0x200000 (the data memory's word offset from the
    // accelerator base) | global instance << 15 | word, as the vendor's tests write it.
    const ArrayGeometry& d = cfg.data_sram;
    const auto snoop_address = [&](uint64_t bus) {
        const uint64_t rel = bus - d.base;
        const uint64_t q = rel / d.quadrant_stride, inst = rel % d.quadrant_stride / d.instance_stride;
        const uint64_t word = rel % d.instance_stride / d.slot_bytes;
        return static_cast<uint32_t>((d.base - cfg.quadrant_regs.base) / 4 |
                                     (q * d.instances_per_quadrant + inst) << d.pointer_shift() | word);
    };
    std::mt19937_64 rng(l.seed * 7919 + 17);
    auto it = words.begin();
    std::advance(it, static_cast<long>(rng() % words.size()));
    const uint32_t a1 = snoop_address(it->first);
    uint32_t a2 = 0, d1 = it->second, d2 = 0, value_sel = 8;
    if (l.snoop_range) {
        a2 = a1 + static_cast<uint32_t>(rng() % 8);  // holes (gaps, other instances' words) are never hits
        value_sel = 6;
        d1 = static_cast<uint32_t>(rng() % 128), d2 = d1 + static_cast<uint32_t>(rng() % 128);
        if (!l.snoop_hit) d1 = 0x100, d2 = 0x1ff;  // no top byte reaches it
    } else if (!l.snoop_hit) {
        d1 ^= 0x80000001u;
    }
    sc.acc = static_cast<uint32_t>(rng()), sc.hit = static_cast<uint32_t>(rng() % 100), sc.max = d1 / 2;
    sc.am = static_cast<uint32_t>(rng());
    const uint32_t acc0 = sc.acc, hit0 = sc.hit, max0 = sc.max, am0 = sc.am;
    for (const auto& [bus, word] : words) {
        const uint32_t a = snoop_address(bus);
        const uint32_t value = value_sel == 8 ? word : word >> 24;
        const bool in_window = a2 == 0 ? a == a1 : a1 <= a && a <= a2;
        const bool match = d2 == 0 ? value == d1 : d1 <= value && value <= d2;
        if (!in_window || !match) continue;
        sc.acc += value;
        ++sc.hit;
        if (value > sc.max) sc.max = value, sc.am = a;
    }
    const uint32_t c1 =
        1u | 1u << 3 | 1u << 4 | 1u << 5 | (a2 ? 5u : 2u) << 12 | (d2 ? 5u : 2u) << 16 | 2u << 24 | value_sel << 28;
    const RegisterMap& map = *cfg.registers;
    const uint64_t base =
        cfg.quadrant_regs.base + test::used_quadrants(l, cfg).front() * cfg.quadrant_regs.quadrant_stride;
    const std::string unit = "REG_SNP" + std::to_string(l.snoop_unit) + "_";
    const std::pair<const char*, uint32_t> regs[] = {
        {"A1", a1},    {"A2", a2},    {"D1", d1},    {"D2", d2}, {"C1", c1}, {"C2", static_cast<uint32_t>(l.layer)},
        {"ACC", acc0}, {"HIT", hit0}, {"MAX", max0}, {"AM", am0}};
    for (const auto& [name, v] : regs) sc.writes.push_back({base + map.quadrant_register(unit + name).offset, v, 4});
    std::ostringstream text;
    text << "snoop " << l.snoop_unit << " A " << std::hex << a1 << ".." << a2 << " D " << d1 << ".." << d2 << " C1 "
         << c1 << std::dec;
    sc.describe = text.str();
    return sc;
}

struct Runner {
    const DeviceConfig& cfg;
    AccelBench bench;
    bool irq = false;
    explicit Runner(const DeviceConfig& device = max78000()) : cfg(device), bench("bench", device) {
        bench.on_irq = [this](bool level) { irq = irq || level; };
        // A fast CNN clock keeps simulated time short; only the function matters here.
        bench.accel.set_cnn_clock_hz(1e9);
        sc_core::sc_start(sc_core::SC_ZERO_TIME);
    }

    void write_all(const std::vector<test::BusWrite>& writes) {
        for (const auto& w : writes) {
            INFO("bus write " << std::hex << w.address << " = " << w.value);
            REQUIRE(bench.write(w.address, w.value, w.bytes) == tlm::TLM_OK_RESPONSE);
        }
    }

    // The snoop unit's accumulators after the layer, against the reference's.
    void check_snoop(const RandomLayer& l, const SnoopCheck& want, std::ostringstream& diff) {
        const RegisterMap& map = *cfg.registers;
        const uint64_t base =
            cfg.quadrant_regs.base + test::used_quadrants(l, cfg).front() * cfg.quadrant_regs.quadrant_stride;
        const std::string unit = "REG_SNP" + std::to_string(l.snoop_unit) + "_";
        const std::pair<const char*, uint32_t> regs[] = {
            {"ACC", want.acc}, {"HIT", want.hit}, {"MAX", want.max}, {"AM", want.am}};
        for (const auto& [name, v] : regs) {
            const uint32_t got = bench.read(base + map.quadrant_register(unit + name).offset);
            if (got != v)
                diff << "  " << want.describe << ": " << unit << name << " 0x" << std::hex << got << ", expected 0x"
                     << v << std::dec << "\n";
        }
    }

    // Returns an empty string when the layer matches the reference, else the first mismatches.
    std::string run(const RandomLayer& l) { return run_against(l, l); }

    // Programs `l` and compares with the reference result of `ref` (normally the same layer).
    std::string run_against(const RandomLayer& l, const RandomLayer& ref) {
        // Each layer starts from reset contents, as a freshly booted device would.
        bench.accel.state().reset();
        irq = false;
        const reference::Tensor expect = reference::run_layer(ref.params, ref.inputs, ref.weights, ref.bias);
        write_all(test::compose_layer_writes(l, cfg));
        const SnoopCheck snoop = l.snoop_unit ? compose_snoop(l, cfg, expect) : SnoopCheck{};
        write_all(snoop.writes);
        write_all(test::compose_start_writes(l, cfg));
        for (int step = 0; step < 2000 && !irq; ++step) sc_core::sc_start(10, sc_core::SC_US);
        if (!irq) return "no completion interrupt";
        // CNN_ISR: acknowledge every running quadrant.
        for (int q : test::used_quadrants(l, cfg)) {
            const uint64_t ctl = cfg.quadrant_regs.base + q * cfg.quadrant_regs.quadrant_stride;
            bench.write(ctl, bench.read(ctl) & ~((1u << 12) | 1u));
        }

        std::ostringstream diff;
        if (l.snoop_unit) check_snoop(l, snoop, diff);
        // A legal layer must not produce any misprogramming warning.
        for (const EngineWarning& w : bench.accel.last_result().warnings)
            diff << "  false warning: q" << w.quadrant << " L" << w.layer << " " << w.reg << " [" << w.kind
                 << "]: " << w.message << "\n";
        int bad = 0;
        for (int m = 0; m < expect.channels; ++m)
            for (int y = 0; y < expect.height; ++y)
                for (int x = 0; x < expect.width; ++x) {
                    const test::OutputLocation loc = test::output_location(l, cfg, m, y * expect.width + x);
                    const uint32_t word = bench.read(loc.address);
                    const int64_t got = l.params.wide_output ? int64_t{static_cast<int32_t>(word)}
                                                             : int64_t{static_cast<int8_t>(word >> (8 * loc.lane))};
                    const int64_t want = expect.at(m, y, x);
                    if (got != want && bad++ < 5)
                        diff << "  channel " << m << " (" << y << "," << x << ") at 0x" << std::hex << loc.address
                             << std::dec << " lane " << loc.lane << ": got " << got << ", reference " << want << "\n";
                }
        if (bad) diff << "  " << bad << " of " << expect.size() << " values differ\n";
        return diff.str();
    }
};

void run_batch(int batch, const DeviceConfig& cfg = max78000()) {
    bool single = false, based = false;
    const uint64_t seed = env_u64("AI8XSIM_SEED", 0, single);
    const uint64_t base = env_u64("AI8XSIM_RANDOM_BASE", 1000, based);
    std::vector<uint64_t> seeds;
    if (single) {
        if (batch != 0) return;  // one seed runs once, in the first batch
        seeds.push_back(seed);
    } else {
        for (int i = 0; i < kLayersPerBatch; ++i) seeds.push_back(base + uint64_t(batch) * kLayersPerBatch + i);
    }
    // Draw every layer before SystemC starts: the generator rejects draws by
    // catching exceptions, which ASan misreads once SystemC has switched stacks.
    std::vector<RandomLayer> layers;
    for (uint64_t s : seeds) layers.push_back(test::generate_random_layer(s, cfg));
    std::printf("random layers (%s) batch %d: seeds %llu..%llu\n", cfg.name.c_str(), batch,
                (unsigned long long)seeds.front(), (unsigned long long)seeds.back());
    Runner runner(cfg);
    int failures = 0;
    for (const RandomLayer& l : layers) {
        const uint64_t s = l.seed;
        std::string diff;
        try {
            diff = runner.run(l);
        } catch (const std::exception& e) {
            diff = std::string("  exception: ") + e.what() + "\n";
        }
        if (!diff.empty()) {
            ++failures;
            FAIL_CHECK(l.describe() << "\n"
                                    << diff << "  reproduce: AI8XSIM_SEED=" << s << " unit_tests_model \"random "
                                    << (cfg.name == "MAX78002" ? "MAX78002 " : "") << "layers batch 0*\"");
        }
    }
    CHECK(failures == 0);
}

}  // namespace

TEST_CASE("random layers batch 0 match the reference", "[random]") { run_batch(0); }
TEST_CASE("random layers batch 1 match the reference", "[random]") { run_batch(1); }
TEST_CASE("random layers batch 2 match the reference", "[random]") { run_batch(2); }
TEST_CASE("random layers batch 3 match the reference", "[random]") { run_batch(3); }
TEST_CASE("random layers batch 4 match the reference", "[random]") { run_batch(4); }

// The same on the MAX78002: its layer-major registers at a random one of the
// 128 layers, larger memories, binary weights, kernel bypass, read-ahead.
TEST_CASE("random MAX78002 layers batch 0 match the reference", "[random][max78002]") { run_batch(0, max78002()); }
TEST_CASE("random MAX78002 layers batch 1 match the reference", "[random][max78002]") { run_batch(1, max78002()); }
TEST_CASE("random MAX78002 layers batch 2 match the reference", "[random][max78002]") { run_batch(2, max78002()); }
TEST_CASE("random MAX78002 layers batch 3 match the reference", "[random][max78002]") { run_batch(3, max78002()); }
TEST_CASE("random MAX78002 layers batch 4 match the reference", "[random][max78002]") { run_batch(4, max78002()); }

TEST_CASE("random layer generator is deterministic per seed and draws every op", "[random]") {
    bool dilated = false, passthrough = false, transpose = false, out_passes = false, chw = false, eltwise = false,
         conv1d = false, conv1x1 = false, conv3x3 = false, narrow = false, passes = false, pooled = false;
    for (uint64_t s = 0; s < 200; ++s) {
        const RandomLayer a = test::generate_random_layer(s, max78000());
        const RandomLayer b = test::generate_random_layer(s, max78000());
        REQUIRE(a.describe() == b.describe());
        REQUIRE(a.inputs.front().values == b.inputs.front().values);
        REQUIRE(a.weights.values == b.weights.values);
        conv1d = conv1d || a.params.op == reference::Op::Conv1d;
        conv1x1 = conv1x1 || (a.params.op == reference::Op::Conv2d && a.params.kernel[0] == 1);
        conv3x3 = conv3x3 || (a.params.op == reference::Op::Conv2d && a.params.kernel[0] == 3);
        narrow = narrow || a.weight_bits < 8;
        passes = passes || a.in_passes > 1;
        pooled = pooled || a.params.pool != reference::PoolType::None;
        eltwise = eltwise || a.inputs.size() > 1;
        chw = chw || a.chw;
        dilated = dilated || a.params.dilation[0] > 1;
        passthrough = passthrough || a.params.op == reference::Op::Passthrough;
        transpose = transpose || a.params.op == reference::Op::ConvTranspose2d;
        out_passes = out_passes || a.out_passes > 1;
    }
    CHECK(conv1d);
    CHECK(conv1x1);
    CHECK(conv3x3);
    CHECK(narrow);
    CHECK(passes);
    CHECK(pooled);
    CHECK(eltwise);
    CHECK(chw);
    CHECK(transpose);
    CHECK(passthrough);
    CHECK(dilated);
    CHECK(out_passes);
}
TEST_CASE("random MAX78002 layer generator draws the MAX78002 features", "[random][max78002]") {
    bool high_layer = false, binary = false, bypass = false, read_ahead = false, big_memory = false;
    bool calcx4 = false, calcx4_one_block = false, calcx4_passes = false, calcx4_offset = false, calcx4_bias = false;
    bool pool_dilation = false, snoop_hit = false, snoop_miss = false, snoop_range = false;
    for (uint64_t s = 0; s < 2000; ++s) {
        const RandomLayer a = test::generate_random_layer(s, max78002());
        REQUIRE(a.describe() == test::generate_random_layer(s, max78002()).describe());
        high_layer = high_layer || a.layer >= 32;  // beyond the MAX78000's 32
        binary = binary || a.binary;
        bypass = bypass || a.bypass;
        read_ahead = read_ahead || a.read_ahead;
        // calcx4 in every layout: one-block and four-block mask ranges, several
        // input and output passes, a kernel offset inside the blocks, bias.
        calcx4 = calcx4 || a.calcx4;
        calcx4_one_block = calcx4_one_block || a.calcx4_one_block;
        calcx4_passes = calcx4_passes || (a.calcx4 && a.in_passes > 1 && a.out_passes > 1);
        calcx4_offset = calcx4_offset || (a.calcx4 && a.kernel_word > 0);
        calcx4_bias = calcx4_bias || (a.calcx4 && !a.bias.empty());
        pool_dilation = pool_dilation || a.params.pool_dilation[0] > 1 || a.params.pool_dilation[1] > 1;
        snoop_hit = snoop_hit || (a.snoop_unit && a.snoop_hit);
        snoop_miss = snoop_miss || (a.snoop_unit && !a.snoop_hit);
        snoop_range = snoop_range || (a.snoop_unit && a.snoop_range);
        big_memory = big_memory || a.in_word >= max78000().data_sram.words || a.out_word >= max78000().data_sram.words;
        CHECK_FALSE(test::generate_random_layer(s, max78000()).binary);  // MAX78002 features stay off the MAX78000
    }
    CHECK(high_layer);
    CHECK(binary);
    CHECK(bypass);
    CHECK(read_ahead);
    CHECK(big_memory);
    CHECK(calcx4);
    CHECK(calcx4_one_block);
    CHECK(calcx4_passes);
    CHECK(calcx4_offset);
    CHECK(calcx4_bias);
    CHECK(pool_dilation);
    CHECK(snoop_hit);
    CHECK(snoop_miss);
    CHECK(snoop_range);
}

namespace {

// The differential check must be able to fail: program a layer, then
// compare against the reference of a slightly different layer.
void check_detects_wrong_results(const DeviceConfig& cfg) {
    std::vector<RandomLayer> layers;  // drawn before SystemC starts (see run_batch)
    for (uint64_t s = 0; s < 20; ++s) layers.push_back(test::generate_random_layer(s, cfg));
    Runner runner(cfg);
    int detected = 0;
    for (const RandomLayer& l : layers) {
        REQUIRE(runner.run(l).empty());
        RandomLayer wrong = l;
        if (!wrong.weights.values.empty())
            wrong.weights.values[0] = static_cast<int8_t>(wrong.weights.values[0] == 0 ? -1 : 0);
        else  // passthrough: change an input value instead
            wrong.inputs[0].values[0] = wrong.inputs[0].values[0] == 0 ? 1 : 0;
        if (!l.bias.empty()) wrong.bias[0] = static_cast<int8_t>(wrong.bias[0] ^ 0x40);
        // Same registers and memories as `l`, reference from `wrong`.
        const std::string diff = runner.run_against(l, wrong);
        detected += diff.empty() ? 0 : 1;
    }
    // A changed weight, input or bias can be hidden by saturation, ReLU or pooling, but not in most layers.
    CHECK(detected >= 10);
}

}  // namespace

TEST_CASE("random layer comparison detects a wrong result", "[random]") { check_detects_wrong_results(max78000()); }
TEST_CASE("random MAX78002 layer comparison detects a wrong result", "[random][max78002]") {
    check_detects_wrong_results(max78002());
}
