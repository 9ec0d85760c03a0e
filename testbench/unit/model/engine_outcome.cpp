#include "testbench/unit/model/engine_outcome.h"

#include <catch2/catch.hpp>

#include "model/engine/worker_pool.h"
#include "model/stream/stream_session.h"
#include "testbench/unit/model/vector_loader.h"
#include "testbench/unit/test_support.h"

namespace ai8x::test {

namespace {

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

EngineOutcome collect(const AcceleratorState& state, const EngineResult& result) {
    EngineOutcome o;
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

}  // namespace

EngineOutcome run_engine(const DeviceConfig& cfg, const std::string& name, bool fifo, WorkerPool* pool,
                         HostProfile* profile) {
    AcceleratorState state(cfg);
    state.compute_pool = pool;
    state.host_profile = profile;
    const GoldenVector vec = load_vector(kVectors + "/" + name);
    apply_vector(vec, state);
    if (!fifo) {
        LayerEngine engine(state);
        engine.set_capture(true);
        const EngineResult result = engine.run();
        return collect(state, result);
    }
    StreamSession session(state, cfg.timing);
    session.run_with_frame(fifo_frame(vec, cfg));
    const EngineResult result = session.finish(true);
    return collect(state, result);
}

void require_same(const EngineOutcome& a, const EngineOutcome& b) {
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

}  // namespace ai8x::test
