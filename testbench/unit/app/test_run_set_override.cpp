// `ai8xsim run --set`: an override of a register the firmware writes takes
// effect silently; one of a register the firmware never writes is reported as
// a warning (log + JSON `warnings`, kind "override_unused") so a user sweeping
// it learns the sweep changes nothing. Addresses come from the vector's cnn.c.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <unistd.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "model/registers/quadrant_registers.h"
#include "app/run_options.h"
#include "tlm/device_config.h"
#include "testbench/unit/app/app_test_support.h"
#include "build_paths.h"

using namespace ai8x;
using namespace ai8x::test;
namespace fs = std::filesystem;

namespace {

const std::string kOverrideVector = std::string(AI8XSIM_SHARED_DIR) + "/vectors/t-test-conv1d-1";

}  // namespace

TEST_CASE("run --set: an override the firmware never hits is warned about, a hit one is not", "[run][set]") {
    const DeviceConfig cfg = load_device_config(default_device_config_path());
    const auto writes = cnn_register_writes(kOverrideVector);
    const uint64_t lreg_base = cfg.quadrant_regs.base + cfg.layer_register_offset;

    // A layer register the firmware writes: forcing the value it writes keeps the verdict.
    auto hit = writes.end();
    for (auto it = writes.begin(); it != writes.end(); ++it)
        if (it->first >= lreg_base && it->first < cfg.quadrant_regs.base + cfg.quadrant_regs.quadrant_stride) {
            hit = it;
            break;
        }
    REQUIRE(hit != writes.end());
    // The last layer's STREAM2 of quadrant 0: a one-layer, non-streaming vector never writes it.
    const uint32_t unused = static_cast<uint32_t>(lreg_base + uint64_t{LREG_STREAM2} * cfg.layer_register_stride +
                                                  4ull * (cfg.max_layers - 1));
    REQUIRE(writes.count(unused) == 0);

    const fs::path work = fs::temp_directory_path() / ("ai8xsim-set-" + std::to_string(::getpid()));
    fs::create_directories(work);
    RunOptions o;
    o.vector_dir = kOverrideVector;
    o.build_dir = ai8x::test::firmware_cache();
    o.json_out = (work / "result.json").string();
    o.quiet_console = true;
    o.overrides.push_back({hit->first, hit->second});
    o.overrides.push_back({unused, 0x00010010});
    CHECK(run_command(o) == kRunPass);

    std::ifstream in(o.json_out);
    REQUIRE(in);
    const auto j = nlohmann::json::parse(in);
    std::vector<std::string> unused_regs;
    for (const auto& w : j["warnings"])
        if (w["kind"] == "override_unused") unused_regs.push_back(w["register"].get<std::string>());
    REQUIRE(unused_regs.size() == 1);
    CHECK(unused_regs[0] == fmt::format("0x{:08x}", unused));
    fs::remove_all(work);
}
