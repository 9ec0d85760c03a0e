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

#include "model/engine/worker_pool.h"
#include "testbench/unit/model/engine_outcome.h"
#include "testbench/unit/model/vector_loader.h"
#include "testbench/unit/test_support.h"

using namespace ai8x;

namespace {

using test::EngineOutcome;
using test::kVectors;
using test::require_same;
using test::run_engine;

void compare_thread_counts(const std::vector<std::string>& names, bool fifo) {
    const DeviceConfig cfg = load_device_config(default_device_config_path());
    WorkerPool two(2), three(3);
    for (const auto& name : names) {
        INFO(name);
        const EngineOutcome single = run_engine(cfg, name, fifo, nullptr);
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
