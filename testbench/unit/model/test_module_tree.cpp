// The accelerator's SystemC module tree mirrors the chip: quadrants own
// processors, processors own their memories, and the numbered views the layer
// engine uses point into that storage.
#include <catch2/catch.hpp>

#include <string>

#include "testbench/unit/model/accel_test_bench.h"

using namespace ai8x;
using namespace ai8x::test;

namespace {
const sc_core::sc_object* child(const sc_core::sc_object& parent, const std::string& basename) {
    for (const sc_core::sc_object* c : parent.get_child_objects())
        if (c->basename() == basename) return c;
    return nullptr;
}
}  // namespace

TEST_CASE("quadrants own sixteen processors each, processors own kernel memory, TRAM and shared SRAM", "[hierarchy]") {
    AccelBench b;
    const DeviceConfig& c = max78000();
    for (uint32_t q = 0; q < c.quadrants; ++q) {
        const sc_core::sc_object* quad = child(b.accel, "q" + std::to_string(q));
        REQUIRE(quad);
        CHECK(std::string(quad->kind()) == "ai8x_quadrant");
        CHECK(child(*quad, "bias"));
        const sc_core::sc_object* power = child(*quad, "power");  // the quadrant's power domain
        REQUIRE(power);
        CHECK(std::string(power->kind()) == "ai8x_power_domain");
        for (uint32_t l = 0; l < c.processors_per_quadrant; ++l) {
            const uint32_t p = q * c.processors_per_quadrant + l;
            const sc_core::sc_object* proc = child(*quad, "p" + std::to_string(p));
            REQUIRE(proc);
            CHECK(child(*proc, "kernel"));
            CHECK(child(*proc, "tram"));
            // Four processors share one data memory instance, owned by the first.
            CHECK((child(*proc, "sram") != nullptr) == (p % c.processors_per_data_sram == 0));
        }
    }
    CHECK(child(b.accel, "fifo"));
    CHECK(child(b.accel, "stream"));
    // The always-on block is a module of its own, and its register window is called as it is.
    const sc_core::sc_object* aon = child(b.accel, "aon");
    REQUIRE(aon);
    CHECK(std::string(aon->kind()) == "ai8x_always_on");
    CHECK(b.accel.register_bank(aon->name()) != nullptr);
    const std::string root = b.accel.name();
    CHECK(b.accel.state().names.tram[37] == root + ".q2.p37.tram");
    CHECK(b.accel.state().names.data_sram[9] == root + ".q2.p36.sram");
    CHECK(b.accel.state().names.bias[3] == root + ".q3.bias");
}

TEST_CASE("a bus write lands in the storage of the processor that owns the memory", "[hierarchy]") {
    AccelBench b;
    const DeviceConfig& c = max78000();
    // Processor 37 is local processor 5 of quadrant 2.
    const uint64_t tram = c.tram.base + 2 * c.tram.quadrant_stride + 5 * c.tram.instance_stride + 7 * 4;
    REQUIRE(b.write(tram, 0x1234) == tlm::TLM_OK_RESPONSE);
    Processor& p37 = *b.accel.quadrant(2).processors[5];
    CHECK(p37.index == 37);
    CHECK(p37.tram.words[7] == 0x1234);
    CHECK(&b.accel.state().tram[37] == &p37.tram.words);
    CHECK(p37.tram.activity.bus.writes == 1);
    // Data SRAM instance 1 of quadrant 2 belongs to processor 36 (its group's first).
    const uint64_t sram = c.data_sram.base + 2 * c.data_sram.quadrant_stride + 1 * c.data_sram.instance_stride + 4;
    REQUIRE(b.write(sram, 0xcafef00d) == tlm::TLM_OK_RESPONSE);
    Processor& p36 = *b.accel.quadrant(2).processors[4];
    REQUIRE(p36.data_sram);
    CHECK(p36.data_sram->words[1] == 0xcafef00d);
    CHECK(p36.data_sram->written[1] == 1);
    CHECK(b.read(sram) == 0xcafef00d);
    CHECK(p36.data_sram->activity.bus.reads == 1);
    // Bias memory belongs to the quadrant.
    const uint64_t bias = c.bias_mem.base + 3 * c.bias_mem.quadrant_stride + 2 * 4;
    REQUIRE(b.write(bias, 0x7f) == tlm::TLM_OK_RESPONSE);
    CHECK(b.accel.quadrant(3).bias[0]->words[2] == 0x7f);
}

TEST_CASE("a device file whose memories do not fit the processor tree is refused", "[hierarchy]") {
    DeviceConfig c = max78000();
    c.tram.instances_per_quadrant = 8;
    try {
        Accelerator a("odd", c);
        FAIL("accepted a TRAM geometry that gives processors no TRAM of their own");
    } catch (const std::invalid_argument& e) {
        CHECK(std::string(e.what()).find("memories.tram.instances_per_quadrant") != std::string::npos);
    }
}
