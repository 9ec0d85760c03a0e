// The in-process run (app/run_session.h): the result in memory equals what
// the command line writes, runs repeat in one process with the same results,
// runs from several threads equal serial runs, and a folder that cannot run
// answers with the command line's message instead of throwing.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <future>
#include <malloc.h>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/layer_dump.h"
#include "app/run_report.h"
#include "app/run_session.h"
#include "testbench/unit/app/app_test_support.h"
#include "testbench/unit/test_support.h"
#include "build_paths.h"

using namespace ai8x;
using namespace ai8x::test;
namespace fs = std::filesystem;

namespace {

std::string shared_vector(const std::string& folder, const std::string& name) {
    return std::string(AI8XSIM_SHARED_DIR) + "/" + folder + "/" + name;
}

RunOptions quiet_options(const std::string& dir) {
    RunOptions o;
    o.vector_dir = dir;
    o.build_dir = ai8x::test::firmware_cache();
    o.quiet_console = true;
    o.capture_layers = true;
    return o;
}

// The run JSON without the host's wall-clock fields (docs/determinism.md).
nlohmann::json without_wall_clock(nlohmann::json j) {
    for (const std::string& f : wall_clock_fields()) j.erase(f);
    return j;
}

void check_same_outputs(const std::vector<LayerOutput>& a, const std::vector<LayerOutput>& b) {
    REQUIRE(a.size() == b.size());
    for (size_t i = 0; i < a.size(); ++i) {
        CHECK(a[i].layer == b[i].layer);
        CHECK(a[i].channels == b[i].channels);
        CHECK(a[i].rows == b[i].rows);
        CHECK(a[i].cols == b[i].cols);
        CHECK(a[i].values == b[i].values);
    }
}

}  // namespace

TEST_CASE("run in process: the result holds the JSON and the layer outputs the files hold", "[run][session]") {
    const fs::path work = scratch("session-files");
    RunOptions o = quiet_options(shared_vector("vectors", "demo-mnist-extrasmall"));
    o.json_out = (work / "run.json").string();
    o.dump_layers_dir = (work / "layers").string();
    const RunResult r = run_in_process(o);
    REQUIRE(r.exit_code == kRunPass);
    CHECK(r.passed());
    CHECK(r.folder_kind == "generated");
    CHECK(r.messages.empty());
    CHECK(r.report.result == "pass");
    CHECK(r.report.kat == "pass");
    CHECK(r.report.cnn_cycles > 0);
    CHECK(without_wall_clock(r.json()) == without_wall_clock(read_json(o.json_out)));
    REQUIRE_FALSE(r.layer_outputs.empty());
    CHECK(r.layer_outputs.size() == r.report.layers.size());
    for (const LayerOutput& l : r.layer_outputs) {
        const LayerOutput file = read_layer_dump(o.dump_layers_dir + "/layer_" + std::to_string(l.layer) + ".txt");
        check_same_outputs({l}, {file});
    }
    fs::remove_all(work);
}

TEST_CASE("run in process: repeated runs in one process give the same results", "[run][session]") {
    const std::string mnist = shared_vector("vectors", "demo-mnist-extrasmall");
    const std::string max78002 = shared_vector("vectors-max78002", "t-test-conv1d-4");
    const RunResult first = run_in_process(quiet_options(mnist));
    REQUIRE(first.exit_code == kRunPass);
    // Another device in between: nothing of a run may leak into the next.
    const RunResult other = run_in_process(quiet_options(max78002));
    REQUIRE(other.exit_code == kRunPass);
    const RunResult again = run_in_process(quiet_options(mnist));
    REQUIRE(again.exit_code == kRunPass);
    CHECK(without_wall_clock(again.json()) == without_wall_clock(first.json()));
    check_same_outputs(again.layer_outputs, first.layer_outputs);
    CHECK(without_wall_clock(other.json()) != without_wall_clock(first.json()));
}

TEST_CASE("run in process: runs from several threads equal serial runs", "[run][session]") {
    const std::vector<std::string> folders = {shared_vector("vectors", "demo-mnist-extrasmall"),
                                              shared_vector("vectors", "t-test-conv1d-4"),
                                              shared_vector("vectors-max78002", "t-test-conv1d-4")};
    std::vector<RunResult> serial;
    for (const auto& f : folders) serial.push_back(run_in_process(quiet_options(f)));
    std::vector<std::future<RunResult>> threads;
    for (int copy = 0; copy < 2; ++copy)
        for (const auto& f : folders)
            threads.push_back(std::async(std::launch::async, [f] { return run_in_process(quiet_options(f)); }));
    for (size_t i = 0; i < threads.size(); ++i) {
        const RunResult r = threads[i].get();
        const RunResult& expected = serial[i % folders.size()];
        INFO(folders[i % folders.size()]);
        CHECK(r.exit_code == expected.exit_code);
        CHECK(without_wall_clock(r.json()) == without_wall_clock(expected.json()));
        check_same_outputs(r.layer_outputs, expected.layer_outputs);
    }
}

TEST_CASE("run in process: a folder that cannot run answers with the command line's message", "[run][session]") {
    const fs::path work = scratch("session-bad");
    fs::create_directories(work / "empty");
    const RunResult r = run_in_process(quiet_options((work / "empty").string()));
    CHECK(r.exit_code == kRunUsageError);
    CHECK_FALSE(r.started());
    REQUIRE(r.messages.size() == 1);
    CHECK(r.messages[0] == (work / "empty" / "main.c").string() + ": missing");
    CHECK(r.json().is_null());
    // The next run in the same process is not disturbed by the one that failed.
    CHECK(run_in_process(quiet_options(shared_vector("vectors", "demo-mnist-extrasmall"))).passed());
    fs::remove_all(work);
}

namespace {
// Heap bytes in use by this process, in KiB, over every malloc arena (glibc
// mallinfo2: small blocks plus mmap-ed ones). Unlike the resident size it does
// not grow when worker threads under machine load open arenas of their own, so
// it measures leaks, not fragmentation.
long heap_in_use_kib() {
    const struct mallinfo2 m = mallinfo2();
    return static_cast<long>((m.uordblks + m.hblkhd) / 1024);
}
}  // namespace

TEST_CASE("run in process: memory stays flat over many runs", "[run][session]") {
    // After a warm-up (allocator pools, caches of the first run), 120 more
    // runs may not grow the heap in use by more than 1 MiB: a leak of 9 KiB a
    // run fails. (A cache entry per loaded device description was 25 KiB a run.)
    const RunOptions o = quiet_options(shared_vector("vectors", "demo-mnist-extrasmall"));
    for (int i = 0; i < 20; ++i) REQUIRE(run_in_process(o).passed());
    const long after_warmup = heap_in_use_kib();
    for (int i = 0; i < 120; ++i) REQUIRE(run_in_process(o).passed());
    const long after_all = heap_in_use_kib();
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
    // Under ASan the heap is ASan's own (freed blocks wait in its quarantine,
    // and mallinfo2 does not see them); there the 140 runs are checked for
    // leaks by LeakSanitizer when the process exits (a check mid-run counts the
    // test framework's live objects).
    return;
#endif
#endif
    REQUIRE(after_warmup > 0);
    CHECK(after_all - after_warmup <= 1024);
}
