// Device families (tlm/device_overlay.h): the MAX78002 file states only what
// differs from the MAX78000, so each register field of the family is defined
// in one place; an overlay that restates its base is refused.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>

#include "testbench/unit/tlm/config_edit_support.h"
#include "tlm/device_config.h"
#include "build_paths.h"

using namespace ai8x;

namespace {

const char* kBase = AI8XSIM_SOURCE_DIR "/configs/max78000.yaml";
const char* kOverlay = AI8XSIM_SOURCE_DIR "/configs/max78002.yaml";

// A device file over the bundled MAX78000 with `body` as its differences;
// returns the loader's error, empty when it loads (then `out` holds the device).
std::string overlay_error(const std::string& body, DeviceConfig* out = nullptr) {
    char name[] = "/tmp/ai8xsim_overlay_XXXXXX";
    const int fd = mkstemp(name);
    REQUIRE(fd >= 0);
    close(fd);
    std::ofstream(name) << "base: " << kBase << "\ndevice: TEST\n" << body;
    std::string msg;
    try {
        const DeviceConfig c = load_device_config(name);
        if (out) *out = c;
    } catch (const ConfigError& e) {
        msg = e.what();
        CHECK(msg.find(name) != std::string::npos);  // the message names the overlay
    }
    std::remove(name);
    return msg;
}

const FieldDescription* field(const DeviceConfig& c, const std::string& reg, const std::string& name) {
    return c.registers->quadrant_register(reg).find(name);
}

}  // namespace

TEST_CASE("a register field restated by an overlay is refused: the family defines it once", "[config][overlay]") {
    // The bundled family loads: the MAX78002 file restates nothing.
    REQUIRE_NOTHROW(load_device_config(kOverlay));
    const std::string msg = test::config_error_after_edit(kOverlay, R"(- \{ name: POOL_EN, remove: true \})",
                                                          R"(- { name: POOL_EN, remove: true }
        - { name: CLK_EN, bits: "3" })");
    CHECK_THAT(msg, Catch::Contains("register_map.quadrant.REG_CTL.fields.CLK_EN.bits"));
    CHECK_THAT(msg, Catch::Contains("restates the base's value"));
    CHECK_THAT(msg, Catch::Contains("max78000.yaml:"));  // where the base defines it
    // A whole restated entry (a register or field with every key the same) is refused too.
    CHECK_THAT(overlay_error("memories:\n  bias:\n    words: 512\n"), Catch::Contains("memories.bias.words"));
    // Within one file a field has one definition (the loader's own check).
    CHECK_THAT(test::config_error_after_edit(kBase, R"(name: CLK_EN,)", "name: CNN_EN,"),
               Catch::Contains("duplicate field name"));
}

TEST_CASE("an overlay changes, adds and removes entries by name", "[config][overlay]") {
    DeviceConfig c;
    REQUIRE(overlay_error(R"(register_map:
  quadrant:
    - name: REG_CTL
      fields:
        - { name: RDY_SEL, bits: "1" }
        - { name: SPARE, bits: "2", meaning: "a new bit" }
        - { name: QUPAC, remove: true }
riscv: ~
)",
                          &c)
                .empty());
    CHECK(field(c, "REG_CTL", "RDY_SEL")->width == 1);
    CHECK(field(c, "REG_CTL", "RDY_SEL")->meaning == "memory ready wait states");  // inherited
    CHECK(field(c, "REG_CTL", "SPARE")->lsb == 2);
    CHECK_FALSE(field(c, "REG_CTL", "QUPAC"));
    CHECK_FALSE(c.riscv.present);
    // Fields keep datasheet order, wherever the overlay added them.
    const auto& fields = c.registers->quadrant_register("REG_CTL").fields;
    for (std::size_t i = 1; i < fields.size(); ++i) CHECK(fields[i - 1].lsb < fields[i].lsb);
}

TEST_CASE("overlay mistakes are named", "[config][overlay]") {
    CHECK_THAT(overlay_error("register_map:\n  quadrant:\n    - { name: REG_NOPE, remove: true }\n"),
               Catch::Contains("removes an entry the base does not have"));
    CHECK_THAT(overlay_error("register_map:\n  quadrant:\n    - { name: REG_CTL }\n"),
               Catch::Contains("changes nothing"));
    CHECK_THAT(overlay_error("nonsense: ~\n"), Catch::Contains("removes a key the base does not have"));
    // Base files are found next to the file or among the bundled ones; others are named.
    char name[] = "/tmp/ai8xsim_overlay_XXXXXX";
    const int fd = mkstemp(name);
    REQUIRE(fd >= 0);
    close(fd);
    std::ofstream(name) << "base: no_such_device.yaml\n";
    CHECK_THROWS_WITH(load_device_config(name), Catch::Contains("no device file no_such_device.yaml"));
    std::ofstream(name) << "base: " << name << "\n";  // itself
    CHECK_THROWS_WITH(load_device_config(name), Catch::Contains("does not end"));
    std::remove(name);
}

TEST_CASE("the System Control Space is described on the core's bus, and a key must fit its field",
          "[config][peripheral]") {
    const DeviceConfig c = load_device_config(kBase);
    const PeripheralDescription* scs = c.registers->find_peripheral("SCS");
    REQUIRE(scs);
    CHECK(scs->core_bus);
    REQUIRE(scs->find("AIRCR"));
    const FieldDescription* key = scs->find("AIRCR")->find("VECTKEY");
    REQUIRE(key);
    CHECK(key->keyed);
    CHECK(key->key == 0x05FA);
    // Outside cpu.peripherals only on the core's bus.
    CHECK_THAT(test::config_error_after_edit(kBase, R"(    bus: core[^\n]*\n)", ""),
               Catch::Contains("peripherals.SCS.base") && Catch::Contains("lies outside cpu.peripherals"));
    CHECK_THAT(test::config_error_after_edit(kBase, "key: 0x05FA", "key: 0x105FA"),
               Catch::Contains("VECTKEY.key") && Catch::Contains("does not fit"));
}
