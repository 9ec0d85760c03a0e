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

struct Runner {
    const DeviceConfig& cfg;
    AccelBench bench;
    bool irq = false;
    explicit Runner(const DeviceConfig& device = max78000()) : cfg(device), bench("bench", device) {
        bench.accel.on_irq = [this](bool level) { irq = irq || level; };
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

    // Returns an empty string when the layer matches the reference, else the first mismatches.
    std::string run(const RandomLayer& l) { return run_against(l, l); }

    // Programs `l` and compares with the reference result of `ref` (normally the same layer).
    std::string run_against(const RandomLayer& l, const RandomLayer& ref) {
        // Each layer starts from reset contents, as a freshly booted device would.
        bench.accel.state().reset();
        irq = false;
        write_all(test::compose_layer_writes(l, cfg));
        write_all(test::compose_start_writes(l, cfg));
        for (int step = 0; step < 2000 && !irq; ++step) sc_core::sc_start(10, sc_core::SC_US);
        if (!irq) return "no completion interrupt";
        // CNN_ISR: acknowledge every running quadrant.
        for (int q : test::used_quadrants(l, cfg)) {
            const uint64_t ctl = cfg.quadrant_regs.base + q * cfg.quadrant_regs.quadrant_stride;
            bench.write(ctl, bench.read(ctl) & ~((1u << 12) | 1u));
        }

        const reference::Tensor expect = reference::run_layer(ref.params, ref.inputs, ref.weights, ref.bias);
        std::ostringstream diff;
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
    for (uint64_t s = 0; s < 300; ++s) {
        const RandomLayer a = test::generate_random_layer(s, max78002());
        REQUIRE(a.describe() == test::generate_random_layer(s, max78002()).describe());
        high_layer = high_layer || a.layer >= 32;  // beyond the MAX78000's 32
        binary = binary || a.binary;
        bypass = bypass || a.bypass;
        read_ahead = read_ahead || a.read_ahead;
        big_memory = big_memory || a.in_word >= max78000().data_sram.words || a.out_word >= max78000().data_sram.words;
        CHECK_FALSE(test::generate_random_layer(s, max78000()).binary);  // MAX78002 features stay off the MAX78000
    }
    CHECK(high_layer);
    CHECK(binary);
    CHECK(bypass);
    CHECK(read_ahead);
    CHECK(big_memory);
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
