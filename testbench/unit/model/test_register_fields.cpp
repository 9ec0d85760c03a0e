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
