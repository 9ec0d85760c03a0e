// Layer engine checks on hand-programmed layers: each test writes registers and
// memories the way the datasheet describes them and computes the expected
// result independently with the plain formula (not with the engine's code).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "model/engine/layer_config.h"
#include "model/engine/layer_engine.h"

using namespace ai8x;

namespace {

const DeviceConfig& device() {
    static const DeviceConfig cfg = load_device_config(default_device_config_path());
    return cfg;
}

struct EngineBench {
    AcceleratorState state{device()};
    EngineBench() { state.quadrant[0].ctl = 1; }  // quadrant 0 runs, layer count 0 = one layer
    uint32_t& reg(unsigned kind, int layer = 0) { return state.quadrant[0].lreg[kind][layer]; }
    // HWC byte of processor p (quadrant 0) at word w.
    void put(int p, uint32_t word, int8_t v) {
        state.data_written[p / 4][word] = 1;  // as if the CPU had loaded it
        uint32_t& m = state.data_sram[p / 4][word];
        const unsigned shift = 8 * (p % 4);
        m = (m & ~(0xffu << shift)) | (uint32_t{static_cast<uint8_t>(v)} << shift);
    }
    int8_t get(int instance, uint32_t word, int lane) const {
        return static_cast<int8_t>(state.data_sram[instance][word] >> (8 * lane));
    }
};

constexpr uint32_t kOneByOne = 1u << 8;     // LREG_ONED kernel length 1
constexpr uint32_t kShiftPlus7 = 7u << 13;  // LREG_POST output shift +7 (result = accumulator)
constexpr uint32_t kBiasEnable = 1u << 12;
constexpr uint32_t kRelu = 1u << 9;
constexpr uint32_t kPassthrough = 3u << 24;

}  // namespace

TEST_CASE("passthrough copies each enabled processor's channel to the write pointer", "[engine]") {
    EngineBench b;
    b.reg(LREG_RCNT) = 2;   // 3 rows
    b.reg(LREG_CCNT) = 1;   // 2 columns
    b.reg(LREG_ENA) = 0x5;  // processors 0 and 2, no masks
    b.reg(LREG_POST) = kPassthrough;
    b.reg(LREG_WPTR_BASE) = 0x100;
    for (uint32_t px = 0; px < 6; ++px) {
        b.put(0, px, static_cast<int8_t>(10 + px));
        b.put(2, px, static_cast<int8_t>(-20 - static_cast<int>(px)));
    }
    const EngineResult r = LayerEngine(b.state).run();
    REQUIRE(r.warnings.empty());
    REQUIRE(r.layers.size() == 1);
    for (uint32_t px = 0; px < 6; ++px) {
        CHECK(b.get(0, 0x100 + px, 0) == 10 + static_cast<int>(px));
        CHECK(b.get(0, 0x100 + px, 1) == -20 - static_cast<int>(px));  // packed next to channel 0
    }
    CHECK(r.layers[0].out_rows == 3);
    CHECK(r.layers[0].out_cols == 2);
    // Both processors share memory instance 0: one word read and one written per pixel.
    CHECK(r.layers[0].input_reads == 6);
    CHECK(r.layers[0].output_writes == 6);
    CHECK(r.layers[0].macs == 0);
}

TEST_CASE("1x1 convolution sums processors, adds bias, rounds and applies ReLU", "[engine]") {
    EngineBench b;
    b.reg(LREG_RCNT) = 0;
    b.reg(LREG_CCNT) = 0;
    b.reg(LREG_ONED) = kOneByOne;
    b.reg(LREG_ENA) = 0x00030003;  // processors 0, 1 with kernels
    b.reg(LREG_MCNT) = 0;          // one kernel per processor at address 0
    b.reg(LREG_WPTR_BASE) = 0x200;
    b.reg(LREG_WPTR_MOFFS) = 1u << 13;
    b.put(0, 0, 10);
    b.put(1, 0, -3);
    // First kernel of a 1x1 layer: the first byte in kernel fill order (KernelWord[0]).
    b.state.kernel[0][0][0] = 5;
    b.state.kernel[1][0][0] = static_cast<uint8_t>(-7);

    SECTION("shift +7 stores the raw sum") {
        b.reg(LREG_POST) = kShiftPlus7;
        LayerEngine(b.state).run();
        CHECK(b.get(0, 0x200, 0) == 10 * 5 + (-3) * (-7));
    }
    SECTION("bias enters at 128x and the sum is rounded half up") {
        b.reg(LREG_POST) = kBiasEnable | 4;  // bias at entry 4, shift 0
        b.state.bias[0][4] = 2;
        LayerEngine(b.state).run();
        const double expected = std::floor(0.5 + (10 * 5 + 3 * 7 + 2 * 128) / 128.0);
        CHECK(b.get(0, 0x200, 0) == static_cast<int>(expected));
    }
    SECTION("ReLU clamps a negative result") {
        b.state.kernel[0][0][0] = static_cast<uint8_t>(-5);
        b.reg(LREG_POST) = kShiftPlus7;
        b.reg(LREG_LCTL) = kRelu;
        LayerEngine(b.state).run();
        CHECK(b.get(0, 0x200, 0) == 0);
    }
}

TEST_CASE("3x3 convolution with padding matches a direct computation", "[engine]") {
    EngineBench b;
    const int rows = 3, cols = 4;
    b.reg(LREG_RCNT) = (1u << 16) | (rows - 1 + 2);  // pad 1
    b.reg(LREG_CCNT) = (1u << 16) | (cols - 1 + 2);
    b.reg(LREG_ENA) = 0x00010001;
    b.reg(LREG_MCNT) = 0;
    b.reg(LREG_POST) = kShiftPlus7;
    b.reg(LREG_WPTR_BASE) = 0x300;
    int in[rows][cols];
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            in[r][c] = (r * cols + c) % 5 - 2;
            b.put(0, static_cast<uint32_t>(r * cols + c), static_cast<int8_t>(in[r][c]));
        }
    int k[9];
    for (int t = 0; t < 9; ++t) {
        k[t] = t - 4;
        b.state.kernel[0][0][8 - t] = static_cast<uint8_t>(static_cast<int8_t>(k[t]));  // taps filled last first
    }
    b.state.kernel_written[0][0] = 1;
    const EngineResult r = LayerEngine(b.state).run();
    REQUIRE(r.warnings.empty());
    for (int orow = 0; orow < rows; ++orow)
        for (int ocol = 0; ocol < cols; ++ocol) {
            int sum = 0;
            for (int kr = 0; kr < 3; ++kr)
                for (int kc = 0; kc < 3; ++kc) {
                    const int y = orow + kr - 1, x = ocol + kc - 1;
                    if (y >= 0 && y < rows && x >= 0 && x < cols) sum += in[y][x] * k[kr * 3 + kc];
                }
            INFO("output " << orow << "," << ocol);
            CHECK(b.get(0, static_cast<uint32_t>(0x300 + orow * cols + ocol), 0) == std::max(-128, std::min(127, sum)));
        }
    CHECK(r.layers[0].macs == uint64_t{rows * cols * 9});
    CHECK(r.layers[0].in_rows == rows + 2);
}

TEST_CASE("misprogrammed pointers give warnings naming layer and register, never a crash", "[engine]") {
    EngineBench b;
    b.reg(LREG_RCNT) = 7;
    b.reg(LREG_CCNT) = 7;
    b.reg(LREG_ENA) = 0x1;
    b.reg(LREG_POST) = kPassthrough;
    // The CPU loaded the whole input instance: only the pointer problems remain.
    std::fill(b.state.data_written[0].begin(), b.state.data_written[0].end(), 1);

    SECTION("write pointer beyond the data memory") {
        b.reg(LREG_WPTR_BASE) = 0x3ff00;
        const EngineResult r = LayerEngine(b.state).run();
        REQUIRE(r.warnings.size() == 1);
        CHECK(r.warnings[0].reg == "LREG_WPTR_BASE");
        CHECK(r.warnings[0].layer == 0);
        CHECK(r.warnings[0].quadrant == 0);
    }
    SECTION("read pointer beyond the data memory instance") {
        b.reg(LREG_RPTR_BASE) = device().data_sram.words - 10;
        const EngineResult r = LayerEngine(b.state).run();
        REQUIRE(r.warnings.size() == 1);
        CHECK(r.warnings[0].reg == "LREG_RPTR_BASE");
    }
    SECTION("layer without enabled processors") {
        b.reg(LREG_ENA) = 0;
        const EngineResult r = LayerEngine(b.state).run();
        REQUIRE(r.warnings.size() == 1);
        CHECK(r.warnings[0].reg == "LREG_ENA");
    }
    SECTION("no quadrant enabled") {
        b.state.quadrant[0].ctl = 0;
        const EngineResult r = LayerEngine(b.state).run();
        REQUIRE(r.warnings.size() == 1);
        CHECK(r.warnings[0].reg == "REG_CTL");
        CHECK(r.layers.empty());
    }
    SECTION("mask range beyond kernel memory") {
        b.reg(LREG_ENA) = 0x00010001;
        b.reg(LREG_MCNT) = 0xffff;    // start 0, end far beyond 768 words
        b.reg(LREG_LCTL2) = 0x1ff00;  // many output channels
        const EngineResult r = LayerEngine(b.state).run();
        bool named = false;
        for (const auto& w : r.warnings) named = named || w.reg == "LREG_MCNT";
        CHECK(named);
    }
}
