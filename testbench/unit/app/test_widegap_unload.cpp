// Pins down why t-test-widegap (../shared/vectors-max78002) is listed in
// testbench/conformance/expected_failures_max78002.txt: a generator bug, not
// a model gap.
//
// Its last layer writes with a write gap of 7 (every 8th word). The
// generator's known-answer test (sampleoutput.h) finds that output in each
// quadrant q's data memory instance i at base + q * quadrant stride + i *
// instance stride, where the hardware writes it. cnn_unload() reads the same
// output at base + out_offset + 8 * (q * quadrant stride + i * instance
// stride): izer/unload.py multiplies the whole source offset by write_gap + 1,
// the processor's instance and quadrant offsets included. Apart from
// instance 0 of quadrant 0, no data memory of the device lies there, so the
// firmware's KAT passes and its cnn_unload() then faults on its second read,
// at 0x51902000, as silicon would.
#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "app/run_options.h"
#include "testbench/unit/app/app_test_support.h"
#include "testbench/unit/test_support.h"
#include "tlm/device_config.h"
#include "build_paths.h"

namespace widegap_unload_test {

using namespace ai8x;
using namespace ai8x::test;
namespace fs = std::filesystem;

const fs::path kWidegap = fs::path(AI8XSIM_SHARED_DIR) / "vectors-max78002" / "t-test-widegap";

// The last value of the log's "NAME = [a, b, ...]" list (the last layer's).
uint64_t last_layer_value(const std::string& log, const std::string& name) {
    std::smatch m;
    REQUIRE(std::regex_search(log, m, std::regex(name + R"(\s*= \[[^\]]*?(0x[0-9a-f]+|\d+)\])")));
    return std::stoull(m[1], nullptr, 0);
}

// The addresses cnn_unload() in `cnn_c` starts its read loops at, in order.
std::vector<uint64_t> unload_reads(const std::string& cnn_c) {
    const std::size_t start = cnn_c.find("int cnn_unload(");
    REQUIRE(start != std::string::npos);
    const std::string body = cnn_c.substr(start, cnn_c.find("\n}", start) - start);
    static const std::regex read(R"(addr = \(volatile uint32_t \*\) (0x[0-9a-f]+);)");
    std::vector<uint64_t> reads;
    for (auto it = std::sregex_iterator(body.begin(), body.end(), read); it != std::sregex_iterator(); ++it)
        reads.push_back(std::stoull((*it)[1], nullptr, 16));
    return reads;
}

// The data memory instances (quadrant, instance) the known-answer test reads.
std::set<std::pair<uint64_t, uint64_t>> kat_instances(const std::string& sampleoutput, const ArrayGeometry& sram) {
    std::vector<uint64_t> v;
    const std::string list = sampleoutput.substr(sampleoutput.find('{'));
    static const std::regex number("0x[0-9a-f]+");
    for (auto it = std::sregex_iterator(list.begin(), list.end(), number); it != std::sregex_iterator(); ++it)
        v.push_back(std::stoull(it->str(), nullptr, 16));
    std::set<std::pair<uint64_t, uint64_t>> instances;
    for (std::size_t i = 0; i + 2 < v.size(); i += 3 + v[i + 2]) {  // address, mask, count, count words
        const uint64_t offset = v[i] - sram.base;
        instances.insert({offset / sram.quadrant_stride, offset % sram.quadrant_stride / sram.instance_stride});
    }
    return instances;
}

bool in_data_memory(uint64_t address, const ArrayGeometry& sram, uint32_t quadrants) {
    for (uint64_t q = 0; q < quadrants; ++q)
        for (uint64_t i = 0; i < sram.instances_per_quadrant; ++i) {
            const uint64_t first = sram.base + q * sram.quadrant_stride + i * sram.instance_stride;
            if (address >= first && address < first + uint64_t{sram.words} * sram.slot_bytes) return true;
        }
    return false;
}

TEST_CASE("t-test-widegap: cnn_unload reads eight times the memory strides away, outside every data memory",
          "[run][max78002][widegap]") {
    const DeviceConfig cfg = load_device_config(AI8XSIM_SOURCE_DIR "/configs/max78002.yaml");
    const ArrayGeometry& sram = cfg.data_sram;
    const std::string log = read_gzip(kWidegap / "log.txt.gz");
    const uint64_t gap = last_layer_value(log, "Output write gap");
    const uint64_t out_offset = last_layer_value(log, "Output offset");
    REQUIRE(gap == 7);

    const std::vector<uint64_t> reads = unload_reads(slurp(kWidegap / "cnn.c"));
    const uint64_t quadrants = cfg.quadrants, instances = sram.instances_per_quadrant;
    REQUIRE(reads.size() >= quadrants * instances);
    std::set<std::pair<uint64_t, uint64_t>> written;
    for (uint64_t q = 0; q < quadrants; ++q)
        for (uint64_t i = 0; i < instances; ++i) {
            INFO("quadrant " << q << " instance " << i);
            const uint64_t hardware = q * sram.quadrant_stride + i * sram.instance_stride;
            // The generator's read: the instance and quadrant offsets scaled by the gap.
            CHECK(reads[q * instances + i] == sram.base + out_offset + (gap + 1) * hardware);
            CHECK(in_data_memory(reads[q * instances + i], sram, cfg.quadrants) == (q == 0 && i == 0));
            written.insert({q, i});
        }
    // The known-answer test reads every instance where the hardware put it.
    CHECK(kat_instances(slurp(kWidegap / "sampleoutput.h"), sram) == written);
    CHECK(reads[1] == 0x51902000);
}

TEST_CASE("t-test-widegap: the known-answer test passes, then cnn_unload faults on its first read outside memory",
          "[run][max78002][widegap]") {
    const fs::path work = scratch("widegap");
    RunOptions o = run_options_for(kWidegap.string(), work);
    CHECK(run_command(o) == kRunSimError);
    const nlohmann::json result = read_json(o.json_out);
    CHECK(result["kat"] == "pass");
    REQUIRE(result["error"].is_string());
    const std::string error = result["error"];
    CHECK(contains(error, "bus fault: read of 4 byte(s) at 0x51902000"));
    CHECK(contains(error, "(cnn_unload+"));
    fs::remove_all(work);
}

}  // namespace widegap_unload_test
