// The memory translator (model/memories/mlator.h) on the bus, as the
// generator's mlator code drives it: layer 0's write pointer names the first
// word, REG_CTL's MLAT_LD and MLATCH_SEL load it and pick the byte, a read of
// REG_MLAT primes it, and then each read returns that byte of the next four
// data words.
#include <catch2/catch.hpp>

#include "model/registers/quadrant_registers.h"
#include "testbench/unit/model/accel_test_bench.h"

using namespace ai8x;
using ai8x::test::AccelBench;
using ai8x::test::lreg;
using ai8x::test::qreg;

namespace {

constexpr uint32_t kQuadrant = 1;
constexpr uint64_t kDataBase = 0x50800000;  // quadrant 1's data memory, instance 0 word 0
constexpr uint64_t kInstanceBytes = 0x8000;
constexpr uint32_t kClockOn = 0x8;        // REG_CTL.CLK_EN, as the generator writes it around the mlator
constexpr uint32_t kMlatLoad = 1u << 16;  // MLAT_LD
constexpr uint64_t kMlat = 0x1000;        // REG_MLAT

// Byte b of word k (instance 1 from word 0x800 on) is 4k + b.
void fill_instance1(AccelBench& b) {
    for (uint32_t k = 0; k < 8; ++k)
        REQUIRE(b.write(kDataBase + kInstanceBytes + 4 * (0x800 + k), 0x03020100u + 0x04040404u * k) ==
                tlm::TLM_OK_RESPONSE);
}

void start_mlator(AccelBench& b, uint32_t byte) {
    REQUIRE(b.write(lreg(kQuadrant, LREG_WPTR_BASE, 0), 0x2800) == tlm::TLM_OK_RESPONSE);  // instance 1, word 0x800
    REQUIRE(b.write(lreg(kQuadrant, LREG_LCTL2, 0), 0) == tlm::TLM_OK_RESPONSE);
    REQUIRE(b.write(qreg(kQuadrant, 0), kClockOn | kMlatLoad | byte << 17) == tlm::TLM_OK_RESPONSE);
    b.read(qreg(kQuadrant, kMlat));  // prime
}

}  // namespace

TEST_CASE("mlator: after the prime each read returns one byte of four consecutive words", "[mlator]") {
    AccelBench b;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    fill_instance1(b);
    start_mlator(b, 1);
    // The generator reads the data memory at consecutive addresses; the translator answers from its pointer.
    CHECK(b.read(kDataBase + kInstanceBytes + 4 * 0x800) == 0x0d090501u);
    CHECK(b.read(kDataBase + kInstanceBytes + 4 * 0x801) == 0x1d191511u);
    REQUIRE(b.write(qreg(kQuadrant, 0), kClockOn) == tlm::TLM_OK_RESPONSE);  // disable
    // Byte 3 through REG_MLAT, as the embedded cnn_unload() reads it.
    start_mlator(b, 3);
    CHECK(b.read(qreg(kQuadrant, kMlat)) == 0x0f0b0703u);
    CHECK(b.read(qreg(kQuadrant, kMlat)) == 0x1f1b1713u);
}

TEST_CASE("mlator: with MLAT_LD clear the data memory and REG_MLAT read as stored", "[mlator]") {
    AccelBench b;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    fill_instance1(b);
    REQUIRE(b.write(qreg(kQuadrant, kMlat), 0xfeed) == tlm::TLM_OK_RESPONSE);
    CHECK(b.read(kDataBase + kInstanceBytes + 4 * 0x801) == 0x07060504u);
    CHECK(b.read(qreg(kQuadrant, kMlat)) == 0xfeedu);
    start_mlator(b, 0);
    REQUIRE(b.write(qreg(kQuadrant, 0), kClockOn) == tlm::TLM_OK_RESPONSE);
    CHECK(b.read(kDataBase + kInstanceBytes + 4 * 0x801) == 0x07060504u);
    // Another quadrant's memory is not translated by this quadrant's mlator.
    REQUIRE(b.write(0x50400000 + 4 * 0x10, 0xa5c3e1f0) == tlm::TLM_OK_RESPONSE);
    start_mlator(b, 0);
    CHECK(b.read(0x50400000 + 4 * 0x10) == 0xa5c3e1f0u);
}
