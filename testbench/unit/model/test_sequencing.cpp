// Sequencing rules (model/sequencing.h) on unusual but legal programs written
// through the bus: a start layer above 0, the master in another quadrant than
// 0, disabled quadrants with programmed layers. The layer engine's outputs, the
// timing walk, the stream plan and the sequencer's busy cycles must all follow
// the same rules. Expected cycles are counted by hand (docs/timing-model.md,
// state costs of 1): a passthrough pixel costs one read, one TRAM write and
// one output write, and the inference one start-up cycle.
#include <catch2/catch.hpp>

#include <systemc>

#include "model/registers/register_fields.h"
#include "model/sequencing.h"
#include "model/stream/stream_plan.h"
#include "model/timing/inference_cycles.h"
#include "testbench/unit/model/accel_test_bench.h"
#include "build_paths.h"

using namespace ai8x;
using ai8x::test::AccelBench;
using ai8x::test::max78000;

namespace {

constexpr uint64_t kStartup = 1;
constexpr uint64_t kPixelCycles = 3;  // read + TRAM write + output write of one passthrough pixel

// One passthrough layer: processor 0 of its quadrant copies rows x cols bytes
// from word `from` of its memory instance to word `to`.
struct Layer {
    uint32_t rows, cols, from, to;
    uint64_t cycles() const { return kPixelCycles * rows * cols; }
};

// Three layers of different sizes, so that every subset has its own cycle count.
const Layer kLayers[] = {{4, 4, 0x000, 0x100}, {2, 4, 0x100, 0x200}, {2, 2, 0x200, 0x300}};

// Programs quadrants through the bus with values composed from the register
// fields of the device description, then runs one inference and records what
// the sequencer, engine and timing saw.
struct Program : AccelBench {
    const DeviceConfig& cfg = max78000();
    const RegisterMap& map = *cfg.registers;
    const RegisterFields& f = register_fields(cfg);
    struct QuadrantSetup {
        bool enabled = false;
        bool slave = false;  // EXT_SYNC set, MASTER_SEL = master
        uint32_t first = 0, last = 0;
    };
    int master = 0;
    QuadrantSetup quadrant[4];
    bool done = false;
    sc_core::sc_time started, finished;

    SC_HAS_PROCESS(Program);
    explicit Program(int master_quadrant) : AccelBench("program"), master(master_quadrant) {
        accel.set_cnn_clock_hz(50e6);
        on_irq = [this](bool level) {
            if (level && !done) finished = sc_core::sc_time_stamp(), done = true;
        };
        SC_THREAD(run);
    }

    uint64_t quadrant_reg(int q, const std::string& name) const {
        return cfg.quadrant_regs.base + q * cfg.quadrant_regs.quadrant_stride + map.quadrant_register(name).offset;
    }
    uint64_t layer_reg(int q, const std::string& name, int layer) const {
        return cfg.quadrant_regs.base + q * cfg.quadrant_regs.quadrant_stride + map.layer_register(name).offset +
               4ull * layer;
    }
    // Global word address of word `word` in the first memory instance of quadrant q.
    uint32_t global_word(int q, uint32_t word) const {
        const uint32_t instance = q * cfg.data_sram.instances_per_quadrant;
        return instance * cfg.data_sram.words + word;
    }
    // Memory the CPU loads: the input of layer 0 and of layer 1, each in every quadrant.
    void load_inputs() {
        for (int q = 0; q < 4; ++q) {
            auto& mem = accel.state().data_sram[q * cfg.data_sram.instances_per_quadrant];
            auto& written = accel.state().data_written[q * cfg.data_sram.instances_per_quadrant];
            for (uint32_t i = 0; i < 16; ++i) {
                mem[kLayers[0].from + i] = 10 + i, written[kLayers[0].from + i] = 1;
                mem[kLayers[1].from + i] = 50 + i, written[kLayers[1].from + i] = 1;
            }
        }
    }
    void program_layers(int q) {
        const RegisterFields& l = f;
        for (int n = 0; n < 3; ++n) {
            const Layer& L = kLayers[n];
            write(layer_reg(q, "LREG_RCNT", n), l.LREG_RCNT.RCNT_MAX.with(0, L.rows - 1));
            write(layer_reg(q, "LREG_CCNT", n), l.LREG_CCNT.CCNT_MAX.with(0, L.cols - 1));
            write(layer_reg(q, "LREG_ENA", n), l.LREG_ENA.PRO_EN.with(0, 1));
            write(layer_reg(q, "LREG_RPTR_BASE", n), l.LREG_RPTR_BASE.RPTR_BASE.with(0, L.from));
            write(layer_reg(q, "LREG_WPTR_BASE", n), l.LREG_WPTR_BASE.WPTR_BASE.with(0, global_word(q, L.to)));
            const RegisterDescription& post = map.layer_register("LREG_POST");
            const uint32_t passthrough = map.field(post, "TS_EN").with(0, 1) | map.field(post, "ONEXONE_EN").with(0, 1);
            write(layer_reg(q, "LREG_POST", n), passthrough);
        }
    }
    uint32_t ctl(int q, bool run) const {
        // The quadrant clock runs (CLK_EN, as the generated cnn_init sets it).
        uint32_t v = f.REG_CTL.CLK_EN.with(f.REG_CTL.CNN_EN.with(0, run ? 1 : 0), 1);
        if (quadrant[q].slave) v = f.REG_CTL.MASTER_SEL.with(f.REG_CTL.EXT_SYNC.with(v, 1), uint32_t(master));
        return v;
    }
    void run() {
        load_inputs();
        for (int q = 0; q < 4; ++q) {
            program_layers(q);  // every quadrant holds a network; only the enabled ones may run it
            write(quadrant_reg(q, "REG_LCNT_MAX"),
                  f.REG_LCNT_MAX.START.with(f.REG_LCNT_MAX.LCNT.with(0, quadrant[q].last), quadrant[q].first));
        }
        // cnn_start(): slaves first, then the master without and with CNN_EN.
        for (int q = 0; q < 4; ++q)
            if (quadrant[q].enabled && q != master) write(quadrant_reg(q, "REG_CTL"), ctl(q, true));
        write(quadrant_reg(master, "REG_CTL"), ctl(master, false));
        started = sc_core::sc_time_stamp();
        write(quadrant_reg(master, "REG_CTL"), ctl(master, true));
    }

    // Byte lane 0 of word `word` of quadrant q's first memory instance.
    uint32_t byte_at(int q, uint32_t word) {
        return accel.state().data_sram[q * cfg.data_sram.instances_per_quadrant][word] & 0xffu;
    }
    bool untouched(int q, uint32_t word, uint32_t n) {
        const auto& written = accel.state().data_written[q * cfg.data_sram.instances_per_quadrant];
        for (uint32_t i = 0; i < n; ++i)
            if (written[word + i]) return false;
        return true;
    }
};

std::vector<int> layer_numbers(const EngineResult& r) {
    std::vector<int> out;
    for (const LayerStats& s : r.layers) out.push_back(s.layer);
    return out;
}

std::vector<int> layer_numbers(const InferenceCycles& t) {
    std::vector<int> out;
    for (const TimedLayer& l : t.layers) out.push_back(l.layer);
    return out;
}

}  // namespace

TEST_CASE("sequencing: start layer 1 skips layer 0 in the engine, the timing walk and the sequencer", "[sequencing]") {
    Program p(0);
    p.quadrant[0] = {true, false, 1, 2};  // START 1, LCNT 2
    sc_core::sc_start(1, sc_core::SC_MS);
    REQUIRE(p.done);

    const SequencePlan plan = plan_sequence(p.accel.state());
    CHECK(plan.master == 0);
    CHECK(plan.first_layer == 1);
    CHECK(plan.last_layer == 2);
    CHECK(plan.layers() == std::vector<int>{1, 2});
    // The generator never writes a start layer on this device: honoured, with a warning.
    REQUIRE(plan.warnings.size() == 1);
    CHECK(plan.warnings[0].reg == "REG_LCNT_MAX");

    // Engine: layers 1 and 2 ran. Layer 0 would have overwritten its output (layer 1's
    // input, loaded by the CPU) with copies of 10 + i: it still holds 50 + i.
    CHECK(layer_numbers(p.accel.last_result()) == std::vector<int>{1, 2});
    for (uint32_t i = 0; i < 16; ++i) CHECK(p.byte_at(0, kLayers[0].to + i) == 50 + i);
    for (uint32_t i = 0; i < 8; ++i) CHECK(p.byte_at(0, kLayers[1].to + i) == 50 + i);  // layer 1 copied its input
    for (uint32_t i = 0; i < 4; ++i) CHECK(p.byte_at(0, kLayers[2].to + i) == 50 + i);  // layer 2 copied layer 1's

    // Timing walk and the sequencer: start-up plus layers 1..2, nothing of layer 0.
    const uint64_t expected = kStartup + kLayers[1].cycles() + kLayers[2].cycles();
    CHECK(layer_numbers(p.accel.last_timing()) == std::vector<int>{1, 2});
    CHECK(p.accel.last_timing().total() == expected);
    CHECK(inference_cycles(TimingModel(p.cfg.timing), p.accel.state(), plan).total() == expected);
    CHECK(p.accel.busy_cycles() == expected);
    CHECK(p.finished - p.started == sc_core::sc_time(double(expected) * 20.0, sc_core::SC_NS));

    // The stream plan reads the same range.
    const StreamPlan sp = make_stream_plan(p.accel.state());
    CHECK(sp.master == 0);
    CHECK(sp.first_layer == 1);
    CHECK(sp.last_layer == 2);
}

TEST_CASE("sequencing: the master in quadrant 2 rules the layer count, disabled quadrants do not run", "[sequencing]") {
    // Quadrants 1 (slave) and 2 (master) run; 0 and 3 hold programmed layers but
    // are disabled. As the generator does, the master's own MASTER_SEL stays 0.
    Program p(2);
    p.quadrant[0] = {false, false, 0, 2};
    p.quadrant[1] = {true, true, 0, 0};   // a slave's layer count is not used
    p.quadrant[2] = {true, false, 0, 1};  // layers 0..1
    p.quadrant[3] = {false, false, 0, 2};
    sc_core::sc_start(1, sc_core::SC_MS);
    REQUIRE(p.done);

    const SequencePlan plan = plan_sequence(p.accel.state());
    CHECK(plan.enabled_quadrants == std::vector<int>{1, 2});
    CHECK(plan.master == 2);
    CHECK(plan.layers() == std::vector<int>{0, 1});
    CHECK(plan.warnings.empty());

    // Engine: layers 0 and 1 over quadrants 1 and 2 (both copy their own input); 0 and 3 untouched.
    CHECK(layer_numbers(p.accel.last_result()) == std::vector<int>{0, 1});
    for (int q : {1, 2}) {
        INFO("quadrant " << q);
        for (uint32_t i = 0; i < 16; ++i) CHECK(p.byte_at(q, kLayers[0].to + i) == 10 + i);
        for (uint32_t i = 0; i < 8; ++i) CHECK(p.byte_at(q, kLayers[1].to + i) == 10 + i);
        CHECK(p.untouched(q, kLayers[2].to, 4));  // layer 2 is beyond the master's LCNT
    }
    for (int q : {0, 3}) {
        INFO("quadrant " << q);
        // Layer 0 would have replaced the CPU-loaded 50 + i there with 10 + i.
        for (uint32_t i = 0; i < 16; ++i) CHECK(p.byte_at(q, kLayers[0].to + i) == 50 + i);
        CHECK(p.untouched(q, kLayers[1].to, 8));
    }

    // Two processors per layer (one per running quadrant) share nothing: each pixel is still one
    // read, one TRAM write and one output write of the layer (the sequencer steps the pixels once).
    const uint64_t expected = kStartup + kLayers[0].cycles() + kLayers[1].cycles();
    CHECK(layer_numbers(p.accel.last_timing()) == std::vector<int>{0, 1});
    CHECK(p.accel.busy_cycles() == expected);
    CHECK(inference_cycles(TimingModel(p.cfg.timing), p.accel.state(), plan).total() == expected);

    // Completion: CNN_IRQ in the running quadrants only.
    const RegField irq = p.f.REG_CTL.CNN_IRQ;
    CHECK(irq.is_set(p.accel.state().quadrant[1].ctl));
    CHECK(irq.is_set(p.accel.state().quadrant[2].ctl));
    CHECK_FALSE(irq.is_set(p.accel.state().quadrant[0].ctl));
    CHECK_FALSE(irq.is_set(p.accel.state().quadrant[3].ctl));

    const StreamPlan sp = make_stream_plan(p.accel.state());
    CHECK(sp.master == 2);
    CHECK(sp.quadrants == std::vector<int>{1, 2});
    CHECK(sp.last_layer == 1);
}

TEST_CASE("sequencing: a slave's enable alone never starts the sequencer", "[sequencing]") {
    Program p(1);
    p.quadrant[1] = {true, false, 0, 0};
    p.quadrant[3] = {true, true, 0, 0};
    const AcceleratorState& s = p.accel.state();
    AcceleratorState& w = p.accel.state();
    const regs::quadrant::REG_CTL& c = p.f.REG_CTL;
    // Quadrant 3 tethered to quadrant 1: not a master, whatever its enable says.
    w.quadrant[3].ctl = c.MASTER_SEL.with(c.EXT_SYNC.with(c.CNN_EN.with(0, 1), 1), 1);
    CHECK_FALSE(runs_on_its_own(s, 3));
    // Naming itself while tethered makes it run on its own (the FIFO-mode master of quadrant 0).
    w.quadrant[3].ctl = c.MASTER_SEL.with(w.quadrant[3].ctl, 3);
    CHECK(runs_on_its_own(s, 3));
    // Without CNN_EN nothing runs.
    w.quadrant[3].ctl = c.CNN_EN.with(w.quadrant[3].ctl, 0);
    CHECK_FALSE(runs_on_its_own(s, 3));
    // No master at all: nothing is computed and the plan says why.
    w.quadrant[3].ctl = c.MASTER_SEL.with(c.EXT_SYNC.with(c.CNN_EN.with(0, 1), 1), 1);
    const SequencePlan plan = plan_sequence(s);
    CHECK(plan.master == -1);
    CHECK_FALSE(plan.runs());
    REQUIRE(plan.warnings.size() == 1);
    CHECK(plan.warnings[0].reg == "REG_CTL");
}

TEST_CASE("sequencing: MAX78002 layer links jump, stop, and never repeat a layer", "[sequencing][max78002]") {
    const DeviceConfig cfg = load_device_config(AI8XSIM_SOURCE_DIR "/configs/max78002.yaml");
    AcceleratorState s(cfg);
    const RegisterFields& f = register_fields(cfg);
    s.quadrant[0].ctl = f.REG_CTL.CNN_EN.with(0, 1);
    s.quadrant[0].lcnt_max = f.REG_LCNT_MAX.LCNT.with(0, 5);
    auto& next = s.quadrant[0].lreg[LREG_NXTLYR];
    const auto link = [&](int to) {
        return f.LREG_NXTLYR.LINK_EN.with(f.LREG_NXTLYR.NEXT_LAYER.with(0, uint32_t(to)), 1);
    };

    CHECK(plan_sequence(s).layers() == std::vector<int>{0, 1, 2, 3, 4, 5});  // no links: index order
    next[0] = link(3);                                                       // 0 -> 3 -> 4 -> 5
    CHECK(plan_sequence(s).layers() == std::vector<int>{0, 3, 4, 5});
    next[3] = f.LREG_NXTLYR.STOP.with(0, 1);  // 0 -> 3, stop
    CHECK(plan_sequence(s).layers() == std::vector<int>{0, 3});
    next[3] = link(0);  // a link back to a layer that ran ends the walk
    CHECK(plan_sequence(s).layers() == std::vector<int>{0, 3});
}
