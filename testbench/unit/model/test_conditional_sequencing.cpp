// MAX78002 sequencing decided at run time: the snoop units (model/snoop.h)
// and one-shot mode (model/sequencing.h), on the generator's own networks.
// Each vector is written into an Accelerator through the bus, as its cnn.c
// does (registers, kernels, bias, input), and started by its cnn_start().
//
// Expected layer orders and accumulators are the vendor's, not the model's:
// each tests/test-snoop*.yaml of ai8x-synthesis gives the sequence it expects
// (simulated_sequence) and, as its last eight values, the accumulators
// (ACC, HIT, MAX, AM of snoop 1, then of snoop 2) after the inference.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <systemc>
#include <vector>

#include "model/registers/register_fields.h"
#include "testbench/unit/model/accel_test_bench.h"
#include "testbench/unit/model/vector_loader.h"
#include "build_paths.h"

using namespace ai8x;
using ai8x::test::AccelBench;
using ai8x::test::max78002;

namespace {

const std::string kDefaults = AI8XSIM_SHARED_DIR "/vectors-max78002/";
const std::string kOptions = AI8XSIM_SHARED_DIR "/vectors-max78002-options/";

// Writes a vector into the accelerator as its main.c does, through the bus:
// cnn_init(), kernels, bias, cnn_configure(), input, cnn_start(); then, for
// one-shot networks, cnn_continue() after each completion interrupt.
struct VectorBench : AccelBench {
    test::GoldenVector vec;
    bool packed_kernels = false;
    int continues = 0;  // cnn_continue() calls after the first completion
    int completions = 0;
    std::vector<std::vector<int>> layers_per_start;
    std::vector<uint32_t> ctl_after_start;  // the master's REG_CTL at each completion
    sc_core::sc_event irq_raised;

    SC_HAS_PROCESS(VectorBench);
    explicit VectorBench(const std::string& dir) : AccelBench("bench", max78002()), vec(test::load_vector(dir)) {
        std::ifstream in(vec.dir + "/cnn.c");
        std::stringstream text;
        text << in.rdbuf();
        packed_kernels = text.str().find("// Set address") != std::string::npos;
        accel.set_cnn_clock_hz(200e6);
        on_irq = [this](bool level) {
            if (level) irq_raised.notify(sc_core::SC_ZERO_TIME);
        };
        SC_THREAD(run);
    }

    void registers(std::size_t from, std::size_t to) {
        for (std::size_t n = from; n < to; ++n)
            REQUIRE(write(vec.registers[n].address, vec.registers[n].value) == tlm::TLM_OK_RESPONSE);
    }
    void words(uint32_t address, const std::vector<uint32_t>& values) {
        for (std::size_t i = 0; i < values.size(); ++i)
            REQUIRE(write(address + 4 * uint32_t(i), values[i]) == tlm::TLM_OK_RESPONSE);
    }
    void kernels() {
        for (const auto& k : vec.kernels) {
            if (!packed_kernels) {
                words(k.address, k.words);
                continue;
            }
            REQUIRE(write(k.address | 1u, 1, 1) == tlm::TLM_OK_RESPONSE);
            for (uint32_t w : k.words) REQUIRE(write(k.address, w) == tlm::TLM_OK_RESPONSE);
        }
    }
    void completed() {
        std::vector<int> ran;
        for (const LayerStats& l : accel.last_result().layers) ran.push_back(l.layer);
        layers_per_start.push_back(ran);
        const DeviceConfig& cfg = max78002();
        ctl_after_start.push_back(read(cfg.quadrant_regs.base));
        // The interrupt handler acknowledges in every quadrant (CNN_IRQ).
        const RegField irq = register_fields(cfg).REG_CTL.CNN_IRQ;
        for (uint32_t q = 0; q < cfg.quadrants; ++q) {
            const uint64_t ctl = cfg.quadrant_regs.base + q * cfg.quadrant_regs.quadrant_stride;
            write(ctl, irq.with(read(ctl), 0));
        }
        ++completions;
    }
    void run() {
        const std::size_t configured = vec.init_writes + vec.configure_writes;
        registers(0, vec.init_writes);
        kernels();
        for (const auto& b : vec.biases) words(b.address, b.values);
        registers(vec.init_writes, configured);
        for (const auto& in : vec.inputs) words(in.address, in.values);
        registers(configured, vec.registers.size());
        wait(irq_raised);
        completed();
        for (int i = 0; i < continues; ++i) {
            const uint64_t ctl0 = max78002().quadrant_regs.base;
            write(ctl0, read(ctl0) | 1u);  // cnn_continue()
            wait(irq_raised);
            completed();
        }
    }

    uint32_t snoop(int unit, const std::string& name) {
        const RegisterMap& map = *max78002().registers;
        return read(max78002().quadrant_regs.base +
                    map.quadrant_register("REG_SNP" + std::to_string(unit) + "_" + name).offset);
    }
    bool known_answer() const { return !test::compare_expected(vec, accel.state()); }
};

struct Accumulators {
    uint32_t acc, hit, max, am;
};

void check_unit(VectorBench& b, int unit, const Accumulators& want) {
    INFO("snoop " << unit);
    CHECK(b.snoop(unit, "ACC") == want.acc);
    CHECK(b.snoop(unit, "HIT") == want.hit);
    CHECK(b.snoop(unit, "MAX") == want.max);
    CHECK(b.snoop(unit, "AM") == want.am);
}

// Runs a snoop test vector; SystemC allows one simulation per process, so
// each vector is its own test case.
void check_snoop_vector(const std::string& name, const std::vector<int>& layers) {
    VectorBench b(kDefaults + name);
    sc_core::sc_start(5, sc_core::SC_MS);
    REQUIRE(b.completions == 1);
    CHECK(b.layers_per_start[0] == layers);
    CHECK(b.known_answer());
}

void check_snoop_vector(const std::string& name, const std::vector<int>& layers, const Accumulators& unit1,
                        const Accumulators& unit2) {
    VectorBench b(kDefaults + name);
    sc_core::sc_start(5, sc_core::SC_MS);
    REQUIRE(b.completions == 1);
    CHECK(b.layers_per_start[0] == layers);
    CHECK(b.known_answer());
    check_unit(b, 1, unit1);
    check_unit(b, 2, unit2);
}

}  // namespace

// Layer orders: the yaml's simulated_sequence (3 or 4 after the snooped
// layer, or stop), otherwise every layer in order.
TEST_CASE("snoop: a matching word takes the link (snoop-skip)", "[snoop][max78002][vectors]") {
    check_snoop_vector("t-test-snoop-skip", {0, 3});
}
TEST_CASE("snoop: without a match the link is not taken (snoop2-noskip)", "[snoop][max78002][vectors]") {
    check_snoop_vector("t-test-snoop2-noskip", {0, 1, 2, 3});
}
TEST_CASE("snoop: the unit watches the layer C2 names and decides its link (snoop2-skipl1)",
          "[snoop][max78002][vectors]") {
    check_snoop_vector("t-test-snoop2-skipl1", {0, 1, 4});
}
TEST_CASE("snoop: a match stops the inference (snoop-stop)", "[snoop][max78002][vectors]") {
    check_snoop_vector("t-test-snoop-stop", {0});
}
TEST_CASE("snoop: without a match the inference runs on (snoop2-nostop)", "[snoop][max78002][vectors]") {
    check_snoop_vector("t-test-snoop2-nostop", {0, 1});
}
// Accumulators: the yaml's last eight values.
TEST_CASE("snoop: one exact hit adds its word to ACC, counts in HIT, keeps MAX and AM (snoop-count)",
          "[snoop][max78002][vectors]") {
    check_snoop_vector("t-test-snoop-count", {0, 1}, {0x7f49bafd, 23, 0x7f49baec, 0x201001}, {9, 8, 7, 6});
}
TEST_CASE("snoop: no hit leaves the accumulators (snoop2-nocount)", "[snoop][max78002][vectors]") {
    check_snoop_vector("t-test-snoop2-nocount", {0, 1}, {13, 14, 15, 16}, {9, 10, 11, 12});
}
TEST_CASE("snoop: top bytes in a range count three hits (snoop2-range)", "[snoop][max78002][vectors]") {
    check_snoop_vector("t-test-snoop2-range", {0, 1}, {0, 0, 0, 0}, {0, 3, 0, 0});
}
TEST_CASE("snoop: no top byte in the range, no hit (snoop-norange)", "[snoop][max78002][vectors]") {
    check_snoop_vector("t-test-snoop-norange", {0, 1}, {0, 0, 0, 0}, {0, 0, 0, 0});
}
TEST_CASE("snoop: three hits outside X1..X2 stop the inference and keep the largest byte (snoop-noxval)",
          "[snoop][max78002][vectors]") {
    check_snoop_vector("t-test-snoop-noxval", {0}, {17, 25, 0x56, 0x201003}, {9, 8, 7, 6});
}

TEST_CASE("one-shot: each start runs one layer, the master's enable clears, cnn_continue() runs the next",
          "[sequencing][max78002][vectors]") {
    // e87-mnist-oneshot: --one-shot --stop-after 2, three layers; main.c starts
    // once and calls cnn_continue() twice (izer toplevel.py: `for (i = 0; i < 2; ...)`).
    VectorBench b(kOptions + "e87-mnist-oneshot-e1d9c2");
    b.continues = 2;
    sc_core::sc_start(50, sc_core::SC_MS);
    REQUIRE(b.completions == 3);
    CHECK(b.layers_per_start == std::vector<std::vector<int>>{{0}, {1}, {2}});
    const RegField cnn_en = register_fields(max78002()).REG_CTL.CNN_EN;
    for (uint32_t ctl : b.ctl_after_start) CHECK_FALSE(cnn_en.is_set(ctl));
    CHECK(b.known_answer());
    CHECK(b.accel.state().oneshot_resume == -1);  // the next start begins at the first layer again
}
