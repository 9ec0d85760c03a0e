// The field accessors are generated from the family's description
// (registers/cnn.h); their bit positions come from the description a run loads
// (`run --config FILE`), bound once by name. A field every device of the family
// has is required; one only some devices have reads as absent elsewhere.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>

#include "model/registers/register_fields.h"
#include "testbench/unit/model/accel_test_bench.h"

using namespace ai8x;

namespace {

// The bundled MAX78000 with `body` laid over it (a user's own device file).
DeviceConfig user_device(const std::string& body, std::string& path) {
    char name[] = "/tmp/ai8xsim_user_device_XXXXXX";
    const int fd = mkstemp(name);
    REQUIRE(fd >= 0);
    close(fd);
    path = name;
    std::ofstream(name) << "base: max78000.yaml\ndevice: USER\n" << body;
    const DeviceConfig c = load_device_config(name);
    std::remove(name);
    return c;
}

}  // namespace

TEST_CASE("field positions come from the loaded description", "[registers]") {
    std::string path;
    const DeviceConfig c = user_device(R"(register_map:
  layer:
    - name: LREG_STRIDE
      fields:
        - { name: STRIDE, bits: "7:4" }
)",
                                       path);
    const RegisterFields& f = register_fields(c);
    CHECK(f.LREG_STRIDE.STRIDE.lsb == 4);
    CHECK(register_fields(test::max78000()).LREG_STRIDE.STRIDE.lsb == 0);
    // Fields only some devices of the family have are absent elsewhere: width 0 reads 0.
    CHECK(register_fields(test::max78000()).REG_CTL.PIPELINE_DIS.width == 0);
    CHECK(register_fields(test::max78002()).REG_CTL.PIPELINE_DIS.width == 1);
    CHECK(register_fields(test::max78002()).REG_CTL.PIPELINE_DIS.get(~0u) == 1);
    CHECK(register_fields(test::max78000()).REG_CTL.PIPELINE_DIS.get(~0u) == 0);
}

TEST_CASE("a description without a field every device of the family has is refused, naming the file", "[registers]") {
    std::string path;
    const DeviceConfig c = user_device(R"(register_map:
  quadrant:
    - name: REG_CTL
      fields:
        - { name: QUPAC, remove: true }
)",
                                       path);
    CHECK_THROWS_WITH(register_fields(c), Catch::Contains(path) && Catch::Contains("REG_CTL") &&
                                              Catch::Contains("no field QUPAC") &&
                                              Catch::Contains("the model needs it"));
}

TEST_CASE("per-layer kinds and their names are generated, and the base device's kinds index its slots", "[registers]") {
    const DeviceConfig& c = test::max78000();
    for (const RegisterDescription& d : c.registers->layer) {
        REQUIRE(d.slot < kLayerRegisterKinds);
        CHECK(layer_register_kind_name(d.slot) == d.name);
    }
    CHECK(layer_register_kind_name(19) == nullptr);                              // MAX78000: REG_IFRM's word
    CHECK(std::string(layer_register_kind_name(LREG_NXTLYR)) == "LREG_NXTLYR");  // MAX78002 only
}

TEST_CASE("the quadrant's global registers have a generated index, and a bus write lands where the index points",
          "[registers]") {
    const DeviceConfig& c = test::max78002();
    for (const RegisterDescription& d : c.registers->quadrant) {
        unsigned r = 0;
        while (r < kQuadrantRegisters && d.name != quadrant_register_name(QuadrantRegister(r))) ++r;
        INFO(d.name);
        REQUIRE(r < kQuadrantRegisters);  // every described register has its index
    }
    CHECK(quadrant_register_name(QuadrantRegister(kQuadrantRegisters)) == nullptr);
    // The snoop unit's control word and an accumulator, written through the bus.
    test::AccelBench b("snoop_regs", c);
    const auto offset = [&c](const char* name) {
        return c.quadrant_regs.base + c.registers->quadrant_register(name).offset;
    };
    REQUIRE(b.write(offset("REG_SNP2_C1") + c.quadrant_regs.quadrant_stride, 0x80000005) == tlm::TLM_OK_RESPONSE);
    REQUIRE(b.write(offset("REG_SNP1_ACC"), 0x1234) == tlm::TLM_OK_RESPONSE);
    QuadrantRegisters& q1 = b.accel.state().quadrant[1];
    QuadrantRegisters& q0 = b.accel.state().quadrant[0];
    CHECK(q1.global(QuadrantRegister::REG_SNP2_C1) == 0x80000005u);
    CHECK(q0.global(QuadrantRegister::REG_SNP2_C1) == 0u);
    CHECK(q0.global(QuadrantRegister::REG_SNP1_ACC) == 0x1234u);
    CHECK(&q0.global(QuadrantRegister::REG_CTL) == &q0.ctl);  // the named members stay where the model reads them
    q0.clear();
    CHECK(q0.global(QuadrantRegister::REG_SNP1_ACC) == 0u);
}
