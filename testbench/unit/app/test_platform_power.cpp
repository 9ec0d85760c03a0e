// The board wiring of the CNN power domains: the generated cnn_enable() /
// cnn_disable() register sequences, written through the bus to the SoC's GCFR
// and GCR, reach the accelerator's quadrants (docs/power-and-reset.md).
#include <catch2/catch.hpp>

#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include "app/platform.h"
#include "model/power/quadrant_memories.h"
#include "testbench/unit/test_support.h"
#include "build_paths.h"

using namespace ai8x;

namespace {
const DeviceConfig& max78000() {
    static const DeviceConfig cfg = load_device_config(AI8XSIM_SOURCE_DIR "/configs/max78000.yaml");
    return cfg;
}

constexpr uint64_t kGcfr = 0x40005800, kPclkdis0 = 0x40000024;
constexpr uint32_t kCnnClockGate = 1u << 25;
constexpr uint64_t kQ1Data = 0x50800000, kQ1Ctl = 0x50500000;

struct Board : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<Board, 32> init;
    Platform platform;
    Board(sc_core::sc_module_name name, bool soc_reset) : sc_module(name), init("init"), platform(max78000()) {
        platform.bind_initiator(init, "test");
        if (soc_reset) platform.assume_soc_reset();
    }
    tlm::tlm_response_status write(uint64_t a, uint32_t v) {
        return test::blocking_access(init, tlm::TLM_WRITE_COMMAND, a, v, 4);
    }
    tlm::tlm_response_status read(uint64_t a, uint32_t& v) {
        return test::blocking_access(init, tlm::TLM_READ_COMMAND, a, v, 4);
    }
    // The generated cnn_enable(): reset, memories, power, isolation off, reset off, clock on.
    void cnn_enable() {
        for (auto [reg, v] : {std::pair{3, 0xf}, {1, 0xf}, {0, 0xf}, {2, 0x0}, {3, 0x0}})
            REQUIRE(write(kGcfr + 4 * reg, v) == tlm::TLM_OK_RESPONSE);
        uint32_t gate = 0;
        REQUIRE(read(kPclkdis0, gate) == tlm::TLM_OK_RESPONSE);
        REQUIRE(write(kPclkdis0, gate & ~kCnnClockGate) == tlm::TLM_OK_RESPONSE);
    }
    // The generated cnn_disable(): clock off, reset, isolation, power off, memories off, reset off.
    void cnn_disable() {
        uint32_t gate = 0;
        REQUIRE(read(kPclkdis0, gate) == tlm::TLM_OK_RESPONSE);
        REQUIRE(write(kPclkdis0, gate | kCnnClockGate) == tlm::TLM_OK_RESPONSE);
        for (auto [reg, v] : {std::pair{3, 0xf}, {2, 0xf}, {0, 0x0}, {1, 0x0}, {3, 0x0}})
            REQUIRE(write(kGcfr + 4 * reg, v) == tlm::TLM_OK_RESPONSE);
    }
};
}  // namespace

TEST_CASE("from the SoC's reset the CNN answers only after cnn_enable()", "[power][platform]") {
    Board b("board", true);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);  // the bus binds its targets at elaboration
    uint32_t v = 0;
    CHECK(b.read(kQ1Ctl, v) == tlm::TLM_GENERIC_ERROR_RESPONSE);  // unpowered and isolated
    CHECK_FALSE(b.platform.accelerator().power().peripheral_clock());
    b.cnn_enable();
    CHECK(b.read(kQ1Ctl, v) == tlm::TLM_OK_RESPONSE);
    CHECK(b.platform.accelerator().power().peripheral_clock());
    CHECK(b.write(kQ1Data, 0xcafe) == tlm::TLM_OK_RESPONSE);
    CHECK(b.read(kQ1Data, v) == tlm::TLM_OK_RESPONSE);
    CHECK(v == 0xcafeu);
}

TEST_CASE("cnn_disable() then cnn_enable() loses the data memory but keeps the weights", "[power][platform]") {
    Board b("board", false);  // as without a CPU: already enabled
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    Accelerator& a = b.platform.accelerator();
    REQUIRE(b.write(kQ1Data, 0xcafe) == tlm::TLM_OK_RESPONSE);
    REQUIRE(b.write(kQ1Ctl, 0x00100008) == tlm::TLM_OK_RESPONSE);
    KernelArray& k = a.state().kernel_arrays[16];
    k.words[3].fill(0x21);
    k.written[3] = 1;

    b.cnn_disable();
    CHECK_FALSE(a.power().peripheral_clock());
    CHECK_FALSE(a.power().powered(1));
    uint32_t v = 0;
    CHECK(b.read(kQ1Data, v) == tlm::TLM_GENERIC_ERROR_RESPONSE);
    b.cnn_enable();
    REQUIRE(b.read(kQ1Data, v) == tlm::TLM_OK_RESPONSE);
    CHECK(v == kLostDataWord);
    REQUIRE(b.read(kQ1Ctl, v) == tlm::TLM_OK_RESPONSE);
    CHECK(v == 0u);
    CHECK(k.words[3][0] == 0x21);
}
