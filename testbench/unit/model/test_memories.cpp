// Accelerator memories seen from the bus: address decoding of every instance of
// every block, slot widths, both kernel loading protocols, access rules.
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "testbench/unit/model/accel_test_bench.h"
#include "build_paths.h"

using namespace ai8x;
using ai8x::test::AccelBench;

namespace {

uint64_t word_addr(const ArrayGeometry& g, uint32_t q, uint32_t inst, uint32_t word) {
    return g.base + q * g.quadrant_stride + inst * g.instance_stride + uint64_t(word) * g.slot_bytes;
}

// Packs kernels the way express loading expects: nine bytes per word, most
// significant byte of each bus word first, the last word padded with zeros.
std::vector<uint32_t> pack_express(const std::vector<KernelWord>& kernels) {
    std::vector<uint8_t> bytes;
    for (const KernelWord& k : kernels) bytes.insert(bytes.end(), k.begin(), k.end());
    while (bytes.size() % 4) bytes.push_back(0);
    std::vector<uint32_t> words;
    for (size_t i = 0; i < bytes.size(); i += 4)
        words.push_back(uint32_t(bytes[i]) << 24 | uint32_t(bytes[i + 1]) << 16 | uint32_t(bytes[i + 2]) << 8 |
                        bytes[i + 3]);
    return words;
}

// A stored word's bytes in bus order (bus byte 0 first): a word keeps them
// in fill order, the reverse (model/accel_state.h KernelWord).
KernelWord bus_order(const KernelWord& stored) {
    return {stored[8], stored[7], stored[6], stored[5], stored[4], stored[3], stored[2], stored[1], stored[0]};
}

// Nine distinct bytes in bus order.
KernelWord kernel(uint8_t seed) {
    KernelWord k;
    for (unsigned i = 0; i < 9; ++i) k[i] = uint8_t(seed * 9 + i + 1);
    return k;
}

// Loads one kernel with the four-write protocol.
void four_write(AccelBench& b, uint64_t slot, const KernelWord& k) {
    REQUIRE(b.write(slot, k[0]) == tlm::TLM_OK_RESPONSE);
    REQUIRE(b.write(slot + 4, uint32_t(k[1]) << 24 | k[2] << 16 | k[3] << 8 | k[4]) == tlm::TLM_OK_RESPONSE);
    REQUIRE(b.write(slot + 8, uint32_t(k[5]) << 24 | k[6] << 16 | k[7] << 8 | k[8]) == tlm::TLM_OK_RESPONSE);
    REQUIRE(b.write(slot + 12, 0) == tlm::TLM_OK_RESPONSE);
}

}  // namespace

TEST_CASE("data SRAM: first and last word of every instance, and the gaps", "[memories]") {
    AccelBench b;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    const DeviceConfig& c = b.accel.state().cfg;
    const ArrayGeometry& g = c.data_sram;
    for (uint32_t q = 0; q < c.quadrants; ++q)
        for (uint32_t i = 0; i < g.instances_per_quadrant; ++i) {
            const uint32_t global = q * g.instances_per_quadrant + i;
            const uint64_t first = word_addr(g, q, i, 0), last = word_addr(g, q, i, g.words - 1);
            REQUIRE(b.write(first, 0xa0000000u | global) == tlm::TLM_OK_RESPONSE);
            REQUIRE(b.write(last, 0xb0000000u | global) == tlm::TLM_OK_RESPONSE);
            CHECK(b.accel.state().data_sram[global][0] == (0xa0000000u | global));
            CHECK(b.accel.state().data_sram[global][g.words - 1] == (0xb0000000u | global));
            CHECK(b.read(first) == (0xa0000000u | global));
            CHECK(b.read(last) == (0xb0000000u | global));
        }
    // The quadrant's data memory ends right after the last instance.
    CHECK(b.read_status(word_addr(g, 0, g.instances_per_quadrant - 1, g.words)) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    CHECK(b.read_status(g.base - 4) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

TEST_CASE("data SRAM: byte and halfword lanes", "[memories]") {
    AccelBench b;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    const uint64_t a = b.accel.state().cfg.data_sram.base + 0x40;
    REQUIRE(b.write(a, 0x11223344) == tlm::TLM_OK_RESPONSE);
    REQUIRE(b.write(a + 1, 0xaa, 1) == tlm::TLM_OK_RESPONSE);
    REQUIRE(b.write(a + 2, 0xbbcc, 2) == tlm::TLM_OK_RESPONSE);
    CHECK(b.read(a) == 0xbbccaa44u);
    CHECK(b.read(a + 3, 1) == 0xbbu);
    CHECK(b.read(a + 2, 2) == 0xbbccu);
}

TEST_CASE("TRAM: 16-bit values in 32-bit slots, every instance, gaps", "[memories]") {
    AccelBench b;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    const DeviceConfig& c = b.accel.state().cfg;
    const ArrayGeometry& g = c.tram;
    for (uint32_t q = 0; q < c.quadrants; ++q)
        for (uint32_t p = 0; p < g.instances_per_quadrant; ++p) {
            const uint32_t global = q * g.instances_per_quadrant + p;
            REQUIRE(b.write(word_addr(g, q, p, 0), 0xffff0000u | global) == tlm::TLM_OK_RESPONSE);
            REQUIRE(b.write(word_addr(g, q, p, g.words - 1), 0x12340000u | (0x8000 + global)) == tlm::TLM_OK_RESPONSE);
            CHECK(b.accel.state().tram[global][0] == global);
            CHECK(b.accel.state().tram[global][g.words - 1] == 0x8000 + global);
            CHECK(b.read(word_addr(g, q, p, 0)) == global);  // upper half reads zero
            CHECK(b.read(word_addr(g, q, p, g.words - 1)) == 0x8000u + global);
            // Between this processor's TRAM and the next one's.
            CHECK(b.read_status(word_addr(g, q, p, g.words)) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
        }
    // Byte writes to the upper half of a slot are ignored.
    REQUIRE(b.write(g.base + 3, 0x77, 1) == tlm::TLM_OK_RESPONSE);
    CHECK(b.read(g.base) == 0u);
}

TEST_CASE("bias memory: 8-bit values in 32-bit slots, every quadrant", "[memories]") {
    AccelBench b;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    const DeviceConfig& c = b.accel.state().cfg;
    const ArrayGeometry& g = c.bias_mem;
    for (uint32_t q = 0; q < c.quadrants; ++q) {
        REQUIRE(b.write(word_addr(g, q, 0, 0), 0x12345600u | (0x10 + q)) == tlm::TLM_OK_RESPONSE);
        REQUIRE(b.write(word_addr(g, q, 0, g.words - 1), 0xf0u + q) == tlm::TLM_OK_RESPONSE);
        CHECK(b.accel.state().bias[q][0] == 0x10 + q);
        CHECK(b.accel.state().bias[q][g.words - 1] == 0xf0 + q);
        CHECK(b.read(word_addr(g, q, 0, 0)) == 0x10u + q);
        CHECK(b.read(word_addr(g, q, 0, g.words - 1)) == 0xf0u + q);
        CHECK(b.read_status(word_addr(g, q, 0, g.words)) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    }
}

TEST_CASE("kernel memory: four-write protocol round trip on every processor", "[memories]") {
    AccelBench b;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    const DeviceConfig& c = b.accel.state().cfg;
    const ArrayGeometry& g = c.kernel_mem;
    for (uint32_t q = 0; q < c.quadrants; ++q)
        for (uint32_t p = 0; p < g.instances_per_quadrant; ++p) {
            const uint32_t global = q * g.instances_per_quadrant + p;
            const KernelWord first = kernel(uint8_t(global)), last = kernel(uint8_t(global + 100));
            four_write(b, word_addr(g, q, p, 0), first);
            four_write(b, word_addr(g, q, p, g.words - 1), last);
            CHECK(bus_order(b.accel.state().kernel[global][0]) == first);
            CHECK(bus_order(b.accel.state().kernel[global][g.words - 1]) == last);
            const uint64_t s = word_addr(g, q, p, g.words - 1);
            CHECK(b.read(s) == last[0]);
            CHECK(b.read(s + 4) == (uint32_t(last[1]) << 24 | last[2] << 16 | last[3] << 8 | last[4]));
            CHECK(b.read(s + 8) == (uint32_t(last[5]) << 24 | last[6] << 16 | last[7] << 8 | last[8]));
            CHECK(b.read(s + 12) == 0u);
            CHECK(b.read_status(word_addr(g, q, p, g.words)) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
        }
}

TEST_CASE("kernel memory: the word is stored only by the write to slot+12", "[memories]") {
    AccelBench b;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    const uint64_t slot = b.accel.state().cfg.kernel_mem.base + 5 * 16;
    REQUIRE(b.write(slot, 0x55) == tlm::TLM_OK_RESPONSE);
    REQUIRE(b.write(slot + 4, 0x01020304) == tlm::TLM_OK_RESPONSE);
    REQUIRE(b.write(slot + 8, 0x05060708) == tlm::TLM_OK_RESPONSE);
    CHECK(b.accel.state().kernel[0][5] == KernelWord{});
    REQUIRE(b.write(slot + 12, 0) == tlm::TLM_OK_RESPONSE);
    CHECK(bus_order(b.accel.state().kernel[0][5]) == KernelWord{0x55, 1, 2, 3, 4, 5, 6, 7, 8});
    CHECK(b.accel.state().kernel[0][5][0] == 8);  // fill order: the bus's last byte first
}

TEST_CASE("kernel memory: express protocol streams packed kernels", "[memories]") {
    AccelBench b;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    const DeviceConfig& c = b.accel.state().cfg;
    const ArrayGeometry& g = c.kernel_mem;
    // Express mode is selected in the quadrant's control register (generated cnn_init does this).
    for (uint32_t q = 0; q < c.quadrants; ++q)
        REQUIRE(b.write(c.quadrant_regs.base + q * c.quadrant_regs.quadrant_stride, 0x00100008) ==
                tlm::TLM_OK_RESPONSE);

    struct Chunk {
        uint32_t q, p, start;
        unsigned count;
    };
    // Odd and even counts (padding), first and last words, several quadrants.
    const std::vector<Chunk> chunks = {{0, 0, 0, 5}, {0, 15, 760, 8}, {2, 7, 100, 1}, {3, 3, 0, 4}};
    uint8_t seed = 1;
    for (const Chunk& ch : chunks) {
        std::vector<KernelWord> ks;
        for (unsigned i = 0; i < ch.count; ++i) ks.push_back(kernel(seed++));
        // Start address: processor window base with the word index at byte offset start * 4, bit 0 set.
        const uint64_t win = g.base + ch.q * g.quadrant_stride + ch.p * g.instance_stride;
        const uint64_t start = win + ch.start * 4;
        REQUIRE(b.write(start | 1, 0x01, 1) == tlm::TLM_OK_RESPONSE);
        uint64_t a = start;
        for (uint32_t w : pack_express(ks)) {
            REQUIRE(b.write(a, w) == tlm::TLM_OK_RESPONSE);
            a += 4;
        }
        const uint32_t global = ch.q * g.instances_per_quadrant + ch.p;
        for (unsigned i = 0; i < ch.count; ++i) CHECK(bus_order(b.accel.state().kernel[global][ch.start + i]) == ks[i]);
        // Read back through the four-write layout.
        const uint64_t s = word_addr(g, ch.q, ch.p, ch.start);
        CHECK(b.read(s) == ks[0][0]);
        CHECK(b.read(s + 4) == (uint32_t(ks[0][1]) << 24 | ks[0][2] << 16 | ks[0][3] << 8 | ks[0][4]));
        // Words beside the chunk are untouched.
        if (ch.start > 0) CHECK(b.accel.state().kernel[global][ch.start - 1] == KernelWord{});
        if (ch.start + ch.count < g.words) CHECK(b.accel.state().kernel[global][ch.start + ch.count] == KernelWord{});
    }
}

TEST_CASE("kernel memory: express stream past the last word is dropped, not wrapped", "[memories]") {
    AccelBench b;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    const DeviceConfig& c = b.accel.state().cfg;
    const ArrayGeometry& g = c.kernel_mem;
    REQUIRE(b.write(c.quadrant_regs.base, 0x00100008) == tlm::TLM_OK_RESPONSE);
    std::vector<KernelWord> ks = {kernel(1), kernel(2), kernel(3)};
    const uint64_t start = g.base + (g.words - 1) * 4;
    REQUIRE(b.write(start | 1, 1, 1) == tlm::TLM_OK_RESPONSE);
    uint64_t a = start;
    for (uint32_t w : pack_express(ks)) {
        REQUIRE(b.write(a, w) == tlm::TLM_OK_RESPONSE);
        a += 4;
    }
    CHECK(bus_order(b.accel.state().kernel[0][g.words - 1]) == ks[0]);
    CHECK(b.accel.state().kernel[1][0] == KernelWord{});
    CHECK(b.accel.state().kernel[0][0] == KernelWord{});
}

TEST_CASE("memories refuse misaligned and oversized accesses", "[memories]") {
    AccelBench b;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    const DeviceConfig& c = b.accel.state().cfg;
    CHECK(b.write(c.data_sram.base + 2, 0, 4) == tlm::TLM_BURST_ERROR_RESPONSE);
    CHECK(b.write(c.data_sram.base + 1, 0, 2) == tlm::TLM_BURST_ERROR_RESPONSE);
    CHECK(b.write(c.data_sram.base, 0, 8) == tlm::TLM_BURST_ERROR_RESPONSE);
    CHECK(b.write(c.tram.base + 1, 0, 4) == tlm::TLM_BURST_ERROR_RESPONSE);
    CHECK(b.write(c.kernel_mem.base + 6, 0, 4) == tlm::TLM_BURST_ERROR_RESPONSE);
    CHECK(b.write(c.bias_mem.base, 0, 3) == tlm::TLM_BURST_ERROR_RESPONSE);
}

namespace {

// The KERNELS initializer of a generated weights.h as numbers.
std::vector<uint32_t> read_kernels_define(const std::string& path) {
    std::ifstream in(path);
    REQUIRE(in);
    std::string line, text;
    bool inside = false;
    while (std::getline(in, line)) {
        if (line.find("#define KERNELS") != std::string::npos) inside = true;
        if (!inside) continue;
        text += line;
        if (line.find('}') != std::string::npos) break;
    }
    std::vector<uint32_t> v;
    std::regex hex("0x[0-9a-fA-F]+");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), hex); it != std::sregex_iterator(); ++it)
        v.push_back(uint32_t(std::stoul(it->str(), nullptr, 16)));
    return v;
}

}  // namespace

TEST_CASE("kernel memory: a generated express KERNELS array loads and re-packs to the same stream", "[memories]") {
    AccelBench b;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    const DeviceConfig& c = b.accel.state().cfg;
    const ArrayGeometry& g = c.kernel_mem;
    const std::vector<uint32_t> k = read_kernels_define(AI8XSIM_SHARED_DIR "/vectors/demo-mnist-extrasmall/weights.h");
    REQUIRE(k.size() > 3);
    for (uint32_t q = 0; q < c.quadrants; ++q)  // what the generated cnn_init() writes first
        REQUIRE(b.write(c.quadrant_regs.base + q * c.quadrant_regs.quadrant_stride, 0x00100008) ==
                tlm::TLM_OK_RESPONSE);
    // Replays the generated cnn_load_weights() loop, then checks each chunk.
    size_t i = 0, chunks = 0;
    while (k[i] != 0) {
        const uint64_t addr = k[i];
        const uint32_t len = k[i + 1];
        REQUIRE(b.write(addr | 1, 0x01, 1) == tlm::TLM_OK_RESPONSE);
        for (uint32_t n = 0; n < len; ++n) REQUIRE(b.write(addr + 4 * n, k[i + 2 + n]) == tlm::TLM_OK_RESPONSE);

        const uint64_t rel = addr - g.base;
        const uint32_t q = uint32_t(rel / g.quadrant_stride);
        const uint32_t p = uint32_t(rel % g.quadrant_stride / g.instance_stride);
        const uint32_t start = uint32_t(rel % g.instance_stride / 4);
        const unsigned count = len * 4 / 9;
        std::vector<KernelWord> stored(&b.accel.state().kernel[q * g.instances_per_quadrant + p][start],
                                       &b.accel.state().kernel[q * g.instances_per_quadrant + p][start + count]);
        for (KernelWord& k : stored) k = bus_order(k);
        const std::vector<uint32_t> repacked = pack_express(stored);
        REQUIRE(repacked.size() <= len);
        for (size_t n = 0; n < repacked.size(); ++n) CHECK(repacked[n] == k[i + 2 + n]);
        i += 2 + len;
        ++chunks;
    }
    CHECK(chunks > 1);
}
