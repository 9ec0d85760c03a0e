// The layer engine with a thread pool (run --threads, model/engine/worker_pool.h)
// computes exactly what it computes on one thread: every plain golden vector
// run directly on the engine, and every FIFO/streaming one through the
// streaming controller, with 2 and 3 threads, leaves the same data memory,
// layer statistics, warnings, captured layer outputs and activity counters as
// without a pool. The large layers among them really are shared (their dot
// products, and the input fetch of layers that read many values).
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "model/engine/layer_engine.h"
#include "model/engine/worker_pool.h"
#include "model/stream/stream_session.h"
#include "testbench/unit/model/vector_loader.h"
#include "testbench/unit/test_support.h"

using namespace ai8x;

namespace {

using test::kVectors;

// Everything a run leaves behind that threading could disturb.
struct ThreadedOutcome {
    std::vector<std::vector<uint32_t>> data;
    std::vector<std::vector<uint8_t>> data_written;
    std::vector<std::vector<uint64_t>> macs;
    std::vector<uint64_t> memory_counts;  // every memory instance's per-layer reads and writes, in order
    std::vector<std::string> layers;      // LayerStats, as text
    std::vector<std::string> warnings;
    std::vector<std::string> hazards;
    std::vector<LayerOutput> outputs;
};

std::string describe(const LayerStats& s) {
    return std::to_string(s.layer) + " macs " + std::to_string(s.macs) + " reads " + std::to_string(s.input_reads) +
           " writes " + std::to_string(s.output_writes) + " in " + std::to_string(s.in_rows) + "x" +
           std::to_string(s.in_cols) + " out " + std::to_string(s.out_rows) + "x" + std::to_string(s.out_cols) +
           " passes " + std::to_string(s.passes) + (s.streaming ? " streaming" : "");
}

template <typename Table>
void add_counts(std::vector<uint64_t>& out, const Table& memories) {
    for (const auto& m : memories)
        for (const AccessCounts& a : m.activity.by_layer) {
            out.push_back(a.reads);
            out.push_back(a.writes);
        }
}

ThreadedOutcome collect(const AcceleratorState& state, const EngineResult& result) {
    ThreadedOutcome o;
    for (const auto& d : state.data_sram) o.data.push_back(d);
    for (const auto& d : state.data_written) o.data_written.push_back(d);
    for (const auto& p : state.processor_activity) o.macs.push_back(p.macs);
    add_counts(o.memory_counts, state.data_sram_arrays);
    add_counts(o.memory_counts, state.tram_arrays);
    add_counts(o.memory_counts, state.kernel_arrays);
    add_counts(o.memory_counts, state.bias_arrays);
    for (const auto& l : result.layers) o.layers.push_back(describe(l));
    for (const auto& w : result.warnings)
        o.warnings.push_back(std::to_string(w.quadrant) + " " + std::to_string(w.layer) + " " + w.reg + " " + w.kind +
                             " x" + std::to_string(w.count) + ": " + w.message);
    for (const auto& h : result.hazards)
        o.hazards.push_back(h.kind + " " + std::to_string(h.layer) + " " + std::to_string(h.address) + " " +
                            std::to_string(h.cycle) + " x" + std::to_string(h.count));
    o.outputs = result.outputs;
    return o;
}

// Runs `name` with `pool` (null: single-threaded), plain or through the streaming controller.
ThreadedOutcome run_engine(const DeviceConfig& cfg, const std::string& name, bool fifo, WorkerPool* pool) {
    AcceleratorState state(cfg);
    state.compute_pool = pool;
    const test::GoldenVector vec = test::load_vector(kVectors + "/" + name);
    test::apply_vector(vec, state);
    if (!fifo) {
        LayerEngine engine(state);
        engine.set_capture(true);
        const EngineResult result = engine.run();
        return collect(state, result);
    }
    StreamSession session(state, cfg.timing);
    session.run_with_frame(test::fifo_frame(vec, cfg));
    const EngineResult result = session.finish(true);
    return collect(state, result);
}

void require_same(const ThreadedOutcome& a, const ThreadedOutcome& b) {
    CHECK(a.layers == b.layers);
    CHECK(a.warnings == b.warnings);
    CHECK(a.hazards == b.hazards);
    CHECK(a.data == b.data);
    CHECK(a.data_written == b.data_written);
    CHECK(a.macs == b.macs);
    CHECK(a.memory_counts == b.memory_counts);
    REQUIRE(a.outputs.size() == b.outputs.size());
    for (std::size_t i = 0; i < a.outputs.size(); ++i) {
        INFO("captured output " << i);
        CHECK(a.outputs[i].layer == b.outputs[i].layer);
        CHECK(a.outputs[i].channels == b.outputs[i].channels);
        CHECK(a.outputs[i].rows == b.outputs[i].rows);
        CHECK(a.outputs[i].cols == b.outputs[i].cols);
        CHECK(a.outputs[i].values == b.outputs[i].values);
    }
}

void compare_thread_counts(const std::vector<std::string>& names, bool fifo) {
    const DeviceConfig cfg = load_device_config(default_device_config_path());
    WorkerPool two(2), three(3);
    for (const auto& name : names) {
        INFO(name);
        const ThreadedOutcome single = run_engine(cfg, name, fifo, nullptr);
        // Something must have been computed, or the comparison proves nothing.
        REQUIRE_FALSE(single.layers.empty());
        require_same(single, run_engine(cfg, name, fifo, &two));
        require_same(single, run_engine(cfg, name, fifo, &three));
    }
    // The large layers were shared (the threshold keeps small ones inline).
    CHECK(two.shared_calls() > 0);
    CHECK(three.shared_calls() > 0);
}

}  // namespace

TEST_CASE("threaded engine: every plain golden vector gives the same results with 1, 2 and 3 threads",
          "[engine][threads][vectors]") {
    const std::vector<std::string> names = test::plain_vector_names(kVectors);
    REQUIRE(names.size() >= 100u);
    compare_thread_counts(names, false);
}

TEST_CASE("threaded engine: every FIFO and streaming golden vector gives the same results with 1, 2 and 3 threads",
          "[engine][threads][vectors][stream]") {
    const std::vector<std::string> names = test::fifo_vector_names(kVectors);
    REQUIRE(names.size() >= 18u);
    compare_thread_counts(names, true);
}
