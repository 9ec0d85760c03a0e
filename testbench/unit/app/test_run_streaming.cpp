// `ai8xsim run` on a streaming vector through the whole board (CPU feeding the
// FIFOs, bounded FIFOs, interleaved streaming layers): the generated registers
// pass without hazards; a consumer row delta lowered through --set makes the
// firmware's known-answer test fail and puts read-before-write hazards of that
// layer into the JSON (docs/streaming.md §6, §11). Register values come from
// the vector's cnn.c at test time.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <unistd.h>

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

const std::string kStreamingVector = std::string(AI8XSIM_SHARED_DIR) + "/vectors/demo-cats-dogs";

// Every cnn.c write of LREG_STREAM2 of `layer`: (address, value).
std::vector<std::pair<uint32_t, uint32_t>> stream2_writes(const DeviceConfig& cfg, int layer) {
    const uint64_t offset = cfg.layer_register_offset + uint64_t{LREG_STREAM2} * cfg.layer_register_stride + 4 * layer;
    std::vector<std::pair<uint32_t, uint32_t>> out;
    for (const auto& [a, value] : cnn_register_writes(kStreamingVector))
        if (a >= cfg.quadrant_regs.base && (a - cfg.quadrant_regs.base) % cfg.quadrant_regs.quadrant_stride == offset)
            out.emplace_back(a, value);
    return out;
}

}  // namespace

TEST_CASE("run: the streaming demo passes without hazards and stalls on its FIFO", "[run][stream]") {
    const fs::path work = fs::temp_directory_path() / ("ai8xsim-stream-" + std::to_string(::getpid()));
    fs::create_directories(work);
    const RunOptions o = run_options_for(kStreamingVector, work);
    REQUIRE(run_command(o) == kRunPass);
    const auto j = read_json(o.json_out);
    CHECK(j["hazards"].empty());
    CHECK(j["dropped_words"] == 0);
    CHECK(j["stall_cycles"].get<uint64_t>() > 0);
    uint64_t layer_sum = 0;
    for (const auto& l : j["layers"]) layer_sum += l["cycles"].get<uint64_t>();
    CHECK(j["cnn_cycles"].get<uint64_t>() > layer_sum);  // stalls come on top of the layers' work
    CHECK(j["layers"][1].contains("stream_span"));
    fs::remove_all(work);
}

TEST_CASE("run: a lowered stream delta fails the known answer and reports hazards", "[run][stream][hazard]") {
    const DeviceConfig cfg = load_device_config(default_device_config_path());
    const auto writes = stream2_writes(cfg, 1);
    REQUIRE(!writes.empty());
    const fs::path work = fs::temp_directory_path() / ("ai8xsim-stream-hz-" + std::to_string(::getpid()));
    fs::create_directories(work);
    RunOptions o = run_options_for(kStreamingVector, work);
    for (const auto& [address, value] : writes) {
        const uint32_t delta2 = (value >> 16) & 0xfff;
        REQUIRE(delta2 >= 4);
        o.overrides.push_back({address, (value & ~(0xfffu << 16)) | ((delta2 - 4) << 16)});
    }
    CHECK(run_command(o) == kRunFail);
    const auto j = read_json(o.json_out);
    REQUIRE(!j["hazards"].empty());
    bool read_before_write = false;
    for (const auto& h : j["hazards"]) {
        CHECK(h["layer"] == 1);
        CHECK(h["address"].get<uint64_t>() >= cfg.data_sram.base);
        CHECK(h["cycle"].get<uint64_t>() > 0);
        read_before_write = read_before_write || h["kind"] == "read_before_write";
    }
    CHECK(read_before_write);
    fs::remove_all(work);
}
