// The energy: section of the device files: both bundled files load it (the
// MAX78002's as calibrated, with its measurements; the MAX78000's as
// uncalibrated), and a broken section is refused naming file, line and key.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <unistd.h>

#include "testbench/unit/tlm/config_edit_support.h"
#include "tlm/device_config.h"
#include "build_paths.h"

using namespace ai8x;

namespace {

// The device file `file` with the first match of `pattern` replaced by `with`;
// returns the loader's error message (the test fails if the file loads). The
// coefficients are stated once, in the MAX78000 file (the base the MAX78002
// file lays its calibration over: tlm/device_overlay.h).
std::string energy_error_after_edit(const std::string& pattern, const std::string& with,
                                    const char* file = AI8XSIM_SOURCE_DIR "/configs/max78002.yaml") {
    const std::string msg = test::config_error_after_edit(file, pattern, with);
    REQUIRE_FALSE(msg.empty());
    return msg;
}

}  // namespace

TEST_CASE("energy: the MAX78002 coefficients load as calibrated, with their measurements", "[config][energy]") {
    const DeviceConfig c = load_device_config(AI8XSIM_SOURCE_DIR "/configs/max78002.yaml");
    REQUIRE(c.energy.present);
    CHECK(c.energy.calibrated);
    CHECK(c.energy.quadrant_cycle_pj > 0);
    CHECK(c.energy.tram_read_pj > 0);
    REQUIRE(c.energy.calibration.size() == 4);
    // All four in the fit; leave-one-out validates it (docs/silicon-anchors.md).
    for (const EnergyMeasurement& m : c.energy.calibration) {
        CHECK(m.role == "fit");
        CHECK(m.inference_uj > 0);
        CHECK(m.inference_us > 0);
    }
}

TEST_CASE("energy: the MAX78000 coefficients are marked uncalibrated", "[config][energy]") {
    const DeviceConfig c = load_device_config(AI8XSIM_SOURCE_DIR "/configs/max78000.yaml");
    REQUIRE(c.energy.present);
    CHECK_FALSE(c.energy.calibrated);
    CHECK(c.energy.basis.find("uncalibrated") != std::string::npos);
    CHECK(c.energy.calibration.empty());
}

TEST_CASE("energy: a broken section is refused naming the key", "[config][energy]") {
    const char* base = AI8XSIM_SOURCE_DIR "/configs/max78000.yaml";
    CHECK(energy_error_after_edit(R"(cycle_pj: [0-9.]+)", "cycle_pj: fast", base).find("energy.quadrant.cycle_pj") !=
          std::string::npos);
    CHECK(energy_error_after_edit(R"(tram_read: [0-9.]+)", "tram_read: -3", base).find("must not be negative") !=
          std::string::npos);
    CHECK(energy_error_after_edit(R"(\n    sleep_mw: 0)", "", base).find("energy.cpu.sleep_mw: missing key") !=
          std::string::npos);
    CHECK(energy_error_after_edit(R"(role: fit)", "role: maybe").find("expected fit or validate") != std::string::npos);
    CHECK(energy_error_after_edit(R"(  calibration:\n(    - .*\n)+)", "").find("no calibration measurements") !=
          std::string::npos);
}
