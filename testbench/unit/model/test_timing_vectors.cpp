// Timing model against the generator's per-layer latency estimate: every
// golden vector without FIFO or streaming is applied to an accelerator state,
// each layer is decoded from the registers and timed, and the result is
// compared with meta.json "latency_cycles".
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/accel_state.h"
#include "model/engine/layer_config.h"
#include "model/timing/inference_cycles.h"
#include "model/timing/timing_model.h"
#include "testbench/unit/model/vector_loader.h"
#include "tlm/device_config.h"
#include "testbench/unit/test_support.h"

using namespace ai8x;

namespace {

using test::kVectors;

struct Row {
    std::string vector;
    int layer = 0;
    int64_t expected = 0, modelled = 0;
    std::string breakdown;
    double error() const { return expected ? double(modelled - expected) / double(expected) : 0.0; }
};

// Vector names of INDEX.md's summary table with their FIFO and streaming flags.
struct IndexEntry {
    std::string name;
    bool fifo = false, streaming = false;
};

std::vector<IndexEntry> read_index() {
    const std::string path = kVectors + "/INDEX.md";
    std::ifstream in(path);
    if (!in) throw std::runtime_error(path + ": cannot open");
    std::vector<IndexEntry> out;
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("## ", 0) == 0 && !out.empty()) break;
        if (line.rfind("| ", 0) != 0) continue;
        std::vector<std::string> cells;
        std::stringstream row(line.substr(1));
        for (std::string cell; std::getline(row, cell, '|');) {
            const auto b = cell.find_first_not_of(' '), e = cell.find_last_not_of(' ');
            cells.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
        }
        if (cells.size() < 5 || cells[0] == "vector" || cells[0].rfind("---", 0) == 0) continue;
        out.push_back({cells[0], cells[3] == "yes", cells[4] == "yes"});
    }
    return out;
}

// FIFO vectors feed their input through the FIFOs, which the test loader does
// not read; timing needs only the accelerator's register writes of cnn.c.
test::GoldenVector register_writes(const DeviceConfig& cfg, const std::string& name) {
    const std::string path = kVectors + "/" + name + "/cnn.c";
    std::ifstream in(path);
    if (!in) throw std::runtime_error(path + ": cannot open");
    static const std::regex assign(R"(\*\(\(volatile uint32_t \*\) (0x[0-9a-fA-F]+)\) = (0x[0-9a-fA-F]+);)");
    test::GoldenVector v;
    v.name = name;
    int line_no = 0;
    for (std::string line; std::getline(in, line);) {
        ++line_no;
        std::smatch m;
        if (!std::regex_search(line, m, assign)) continue;
        const uint32_t address = uint32_t(std::stoul(m[1].str(), nullptr, 16));
        const uint64_t rel = uint64_t(address) - cfg.quadrant_regs.base;
        if (address < cfg.quadrant_regs.base || rel / cfg.quadrant_regs.quadrant_stride >= cfg.quadrants ||
            rel % cfg.quadrant_regs.quadrant_stride >= cfg.quadrant_regs.size)
            continue;
        v.registers.push_back({address, uint32_t(std::stoul(m[2].str(), nullptr, 16)), line_no});
    }
    return v;
}

nlohmann::json read_meta(const std::string& name) {
    const std::string path = kVectors + "/" + name + "/meta.json";
    std::ifstream in(path);
    if (!in) throw std::runtime_error(path + ": cannot open");
    return nlohmann::json::parse(in);
}

}  // namespace

TEST_CASE("timing: per-layer cycles match the generator's latency estimate", "[timing][vectors]") {
    const DeviceConfig cfg = load_device_config(default_device_config_path());
    const TimingModel model(cfg.timing);

    std::vector<Row> rows, streaming_rows;
    int64_t expected_total = 0, modelled_total = 0;
    int vectors = 0;
    for (const IndexEntry& entry : read_index()) {
        const std::string& name = entry.name;
        INFO(name);
        const nlohmann::json lat = read_meta(name).at("latency_cycles");
        AcceleratorState st(cfg);
        if (entry.fifo)
            test::apply_vector(register_writes(cfg, name), st);
        else
            test::apply_vector(test::load_vector(kVectors + "/" + name), st);

        // cnn_start() is part of the loaded writes: the sequencing rules pick master and layers.
        const InferenceCycles inf = inference_cycles(model, st, plan_sequence(st));
        CHECK(int64_t(inf.startup) == lat.at("Startup").get<int64_t>());
        CHECK(inf.layers.size() + 2 == lat.size());  // every layer decoded; keys also hold Startup and Total
        for (const TimedLayer& t : inf.layers) {
            const std::string key = "Layer " + std::to_string(t.layer);
            INFO(key);
            REQUIRE(lat.contains(key));
            (entry.streaming ? streaming_rows : rows)
                .push_back(Row{name, t.layer, lat.at(key).get<int64_t>(), t.cycles.total(), describe(t.cycles)});
        }
        // Streaming vectors overlap layers on hardware, which the model does
        // not do yet: they are listed for information only.
        if (entry.streaming) continue;
        ++vectors;
        expected_total += lat.at("Total").get<int64_t>();
        modelled_total += int64_t(inf.total());
    }

    std::printf("Streaming vectors (not compared; the generator's figure is its rough 1.5x estimate):\n");
    for (const Row& r : streaming_rows)
        std::printf("%-44s %5d %10lld %10lld %7.2f%%\n", r.vector.c_str(), r.layer, (long long)r.expected,
                    (long long)r.modelled, 100.0 * r.error());
    std::printf("\n");

    std::printf("%-44s %5s %10s %10s %8s  %s\n", "vector", "layer", "generator", "model", "error", "breakdown");
    int exact = 0, within = 0;
    const Row* worst = nullptr;
    for (const Row& r : rows) {
        if (r.modelled == r.expected) ++exact;
        if (std::fabs(r.error()) <= 0.02) ++within;
        if (!worst || std::fabs(r.error()) > std::fabs(worst->error())) worst = &r;
        std::printf("%-44s %5d %10lld %10lld %7.2f%%  %s\n", r.vector.c_str(), r.layer, (long long)r.expected,
                    (long long)r.modelled, 100.0 * r.error(), r.breakdown.c_str());
    }
    const double total_error = expected_total ? double(modelled_total - expected_total) / double(expected_total) : 0;
    std::printf("\n%d vectors, %zu layers: %d exact (%.1f%%), %d within 2%%, total %lld vs %lld (%.3f%%)\n", vectors,
                rows.size(), exact, rows.empty() ? 0.0 : 100.0 * exact / rows.size(), within, (long long)modelled_total,
                (long long)expected_total, 100.0 * total_error);
    if (worst)
        std::printf("worst layer: %s layer %d: model %lld, generator %lld (%.2f%%)\n", worst->vector.c_str(),
                    worst->layer, (long long)worst->modelled, (long long)worst->expected, 100.0 * worst->error());

    REQUIRE(vectors > 100);
    CHECK(within == int(rows.size()));
    CHECK(exact >= 0.95 * rows.size());
    CHECK(std::fabs(total_error) <= 0.01);
}
