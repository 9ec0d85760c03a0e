// The run report's yardstick and occupancy fields: per-layer generator
// estimate and utilization, CNN clock, and the memory map.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "app/generator_estimate.h"
#include "app/run_options.h"
#include "testbench/reference/generator_log.h"
#include "testbench/unit/layer_counts.h"
#include "testbench/unit/test_support.h"
#include "tlm/device_config.h"
#include "testbench/unit/app/app_test_support.h"
#include "build_paths.h"

using namespace ai8x;
using namespace ai8x::test;
namespace fs = std::filesystem;

namespace {

reference::GeneratorLog logged_layers(const std::string& vector) {
    std::istringstream text(test::read_gzip(vector + "/log.txt.gz"));
    return reference::parse_generator_log(text, vector + "/log.txt.gz");
}

const reference::LogLayerCase& logged_layer(const reference::GeneratorLog& log, int layer) {
    for (const auto& c : log.layers)
        if (c.layer == layer) return c;
    FAIL("the log has no layer " << layer);
    throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("generator estimate: layers, startup and total come from meta.json", "[estimate]") {
    const fs::path dir = scratch("meta");
    std::ofstream(dir / "meta.json")
        << R"({"latency_cycles": {"Startup": 1, "Layer 0": 100, "Layer 2": 7, "Total": 108}})";
    const auto est = read_generator_estimate(dir.string());
    REQUIRE(est);
    CHECK(est->startup == 1u);
    CHECK(est->total == 108u);
    REQUIRE(est->layers.size() == 2);
    CHECK(est->layers.at(0) == 100u);
    CHECK(est->layers.at(2) == 7u);
    fs::remove_all(dir);
}

TEST_CASE("generator estimate: absent file is no estimate, malformed file names itself", "[estimate]") {
    const fs::path dir = scratch("bad");
    CHECK_FALSE(read_generator_estimate(dir.string()));
    std::ofstream(dir / "meta.json") << R"({"latency_cycles": {"Layer 0": "many"}})";
    CHECK_THROWS_WITH(read_generator_estimate(dir.string()),
                      Catch::Contains("meta.json") && Catch::Contains("Layer 0"));
    std::ofstream(dir / "meta.json") << "{ not json";
    CHECK_THROWS_WITH(read_generator_estimate(dir.string()), Catch::Contains("malformed JSON"));
    fs::remove_all(dir);
}

TEST_CASE("run --json: estimate, utilization, clock and memory occupancy", "[run][vectors]") {
    const fs::path work = scratch("fields");
    const std::string vector = std::string(AI8XSIM_SHARED_DIR) + "/vectors/demo-mnist-extrasmall";
    RunOptions o;
    o.vector_dir = vector;
    o.build_dir = ai8x::test::firmware_cache();
    o.json_out = (work / "result.json").string();
    o.quiet_console = true;
    REQUIRE(run_command(o) == kRunPass);

    const nlohmann::json j = nlohmann::json::parse(test::slurp(o.json_out));
    const DeviceConfig cfg = load_device_config(default_device_config_path());
    const double peak = double(cfg.processors_total()) * cfg.timing.peak_macs_per_processor_cycle;
    CHECK(j["vector"] == vector);
    CHECK(j["cnn_clock_hz"].get<double>() == cfg.clocks.pclk_hz);  // generated main() runs the CNN from PCLK
    // Expected values from the vector itself: meta.json's estimate read here
    // (not by the reader under test) and each layer's MACs from the shapes in
    // the generator's log.
    const nlohmann::json meta = nlohmann::json::parse(test::slurp(vector + "/meta.json")).at("latency_cycles");
    const reference::GeneratorLog log = logged_layers(vector);
    CHECK(j["estimate_total"] == meta.at("Total"));
    REQUIRE(j["layers"].size() == log.layers.size());
    for (const auto& l : j["layers"]) {
        const int layer = l["layer"].get<int>();
        INFO("layer " << layer);
        const uint64_t estimate = meta.at("Layer " + std::to_string(layer)).get<uint64_t>();
        CHECK(l["estimate"] == estimate);
        CHECK(l["cycles"] == estimate);  // this vector's timing is exact (conformance timing criteria)
        const uint64_t macs = test::hardware_macs(logged_layer(log, layer), cfg);
        CHECK(l["macs"] == macs);
        // The array's share of its peak over the estimated cycles.
        CHECK(l["utilization"].get<double>() == Approx(double(macs) / (double(estimate) * peak)));
    }

    // The firmware loaded kernels and input data: both show up as used words.
    uint64_t data_used = 0, kernel_used = 0;
    for (const auto& m : j["memory"]) {
        const uint64_t used = m["used"].get<uint64_t>();
        uint64_t in_ranges = 0;
        for (const auto& r : m["ranges"]) in_ranges += r[1].get<uint64_t>() - r[0].get<uint64_t>() + 1;
        CHECK(in_ranges == used);
        CHECK(used <= m["words"].get<uint64_t>());
        if (m["memory"] == "data_sram") data_used += used;
        if (m["memory"] == "kernel") kernel_used += used;
    }
    CHECK(data_used > 0);
    CHECK(kernel_used > 0);

    // Activity: every processor, quadrant and memory instance by hierarchical
    // name; per-layer MACs add up to each layer's MACs.
    const auto& act = j.at("activity");
    REQUIRE(act.at("layers").size() == j["layers"].size());
    CHECK(act.at("processors").size() == cfg.processors_total());
    CHECK(act.at("quadrants").size() == cfg.quadrants);
    CHECK(act.at("processors")[37].at("name") == "cnn.q2.p37");
    for (size_t i = 0; i < j["layers"].size(); ++i) {
        uint64_t macs = 0;
        for (const auto& p : act.at("processors")) macs += p.at("macs")[i].get<uint64_t>();
        CHECK(macs == j["layers"][i]["macs"].get<uint64_t>());
    }
    bool named_sram = false;
    for (const auto& m : act.at("memories")) named_sram |= m.at("name") == "cnn.q0.p4.sram";
    CHECK(named_sram);
    fs::remove_all(work);
}
