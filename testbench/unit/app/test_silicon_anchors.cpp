// The silicon-anchor list of ai8xsim-bench (bench/silicon_anchors.*): reading
// it, refusing bad entries with the file and entry named, reading the
// firmware's stopwatch line, and the anchors that cannot run.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "bench/silicon_anchors.h"
#include "testbench/unit/app/app_test_support.h"
#include "build_paths.h"

using namespace ai8x::bench;
namespace fs = std::filesystem;

namespace {

fs::path write_list(const std::string& name, const std::string& text) {
    const fs::path dir = ai8x::test::scratch("anchors");
    const fs::path p = dir / name;
    std::ofstream(p) << text;
    return p;
}

const char* const kTwo = R"(anchors:
  - name: one
    vector: demo-one
    device: MAX78000
    timed: inference
    silicon_us: 1234.5
    tolerance_pct: 2
    source: https://example.invalid/one
  - name: two
    vector: ~
    device: MAX78002
    timed: load+inference
    silicon_us: 77
    board: a board
    source: somewhere
)";

std::string error_of(const fs::path& p) {
    try {
        load_anchors(p.string());
    } catch (const std::exception& e) {
        return e.what();
    }
    return {};
}

}  // namespace

TEST_CASE("silicon anchors: a list is read entry by entry, tolerance and vector optional", "[bench][anchors]") {
    const auto anchors = load_anchors(write_list("two.yaml", kTwo).string());
    REQUIRE(anchors.size() == 2);
    CHECK(anchors[0].name == "one");
    CHECK(anchors[0].vector == "demo-one");
    CHECK(anchors[0].timed == "inference");
    CHECK(anchors[0].silicon_us == 1234.5);
    REQUIRE(anchors[0].tolerance_pct);
    CHECK(*anchors[0].tolerance_pct == 2);
    CHECK(anchors[1].vector.empty());
    CHECK(anchors[1].device == "MAX78002");
    CHECK(anchors[1].timed == "load+inference");
    CHECK_FALSE(anchors[1].tolerance_pct);
    CHECK(anchors[1].board == "a board");
}

TEST_CASE("silicon anchors: a bad entry is refused naming the file, the entry and the key", "[bench][anchors]") {
    std::string text = kTwo;
    const std::string no_time = std::string(text).replace(text.find("    silicon_us: 77\n"), 19, "");
    const fs::path p = write_list("no_time.yaml", no_time);
    std::string e = error_of(p);
    CHECK(e.find(p.string()) != std::string::npos);
    CHECK(e.find("anchor 2") != std::string::npos);
    CHECK(e.find("silicon_us") != std::string::npos);

    e = error_of(write_list("bad_timed.yaml", std::string(text).replace(text.find("load+inference"), 14, "loading")));
    CHECK(e.find("'timed'") != std::string::npos);
    CHECK(e.find("loading") != std::string::npos);

    e = error_of(write_list("bad_number.yaml", std::string(text).replace(text.find("1234.5"), 6, "12x4")));
    CHECK(e.find("anchor 1") != std::string::npos);
    CHECK(e.find("12x4") != std::string::npos);

    CHECK(error_of(write_list("not_a_list.yaml", "anchors: 3\n")).find("list") != std::string::npos);
    CHECK_FALSE(error_of(write_list("broken.yaml", "anchors: [\n")).empty());
    CHECK_FALSE(error_of(ai8x::test::scratch("anchors") / "missing.yaml").empty());
}

TEST_CASE("silicon anchors: the stopwatch line of both kinds of firmware is read", "[bench][anchors]") {
    auto plain = find_stopwatch("*** PASS ***\n\nApproximate inference time: 1405 us\n\nClassification");
    REQUIRE(plain);
    CHECK(plain->us == 1405);
    CHECK_FALSE(plain->includes_loading);
    auto fifo = find_stopwatch("Approximate data loading and inference time: 12283 us\n");
    REQUIRE(fifo);
    CHECK(fifo->us == 12283);
    CHECK(fifo->includes_loading);
    CHECK_FALSE(find_stopwatch("*** PASS ***\n"));
}

TEST_CASE("silicon anchors: an anchor not run is listed, and one with a tolerance then misses", "[bench][anchors]") {
    const auto anchors = load_anchors(write_list("two.yaml", kTwo).string());
    const auto rows =
        run_anchors(anchors, {(ai8x::test::scratch("anchors") / "no-such-folder").string()}, "/bin/false");
    REQUIRE(rows.size() == 2);
    CHECK(rows[0].result == "not found");
    CHECK_FALSE(rows[0].ok);  // tolerance 2 %: a check that could not run
    CHECK(rows[1].result == "no vector");
    CHECK(rows[1].ok);  // listed only
    for (const auto& r : rows) CHECK_FALSE(r.ours_us);
}

// An anchor list of one entry: demo-mnist-extrasmall (its firmware prints the
// stopwatch) measured at `silicon_us`, checked within 1 %.
std::vector<AnchorResult> run_mnist_extrasmall(double silicon_us) {
    const std::string text =
        "anchors:\n  - { name: x, vector: demo-mnist-extrasmall, device: MAX78000, timed: "
        "inference, silicon_us: " +
        std::to_string(silicon_us) + ", tolerance_pct: 1, source: test }\n";
    static std::vector<Anchor> anchors;  // the rows point into it
    anchors = load_anchors(write_list("one.yaml", text).string());
    return run_anchors(anchors, {std::string(AI8XSIM_SHARED_DIR) + "/vectors"}, AI8XSIM_BINARY);
}

TEST_CASE("silicon anchors: a run outside its tolerance misses, one inside passes", "[bench][anchors]") {
    const auto first = run_mnist_extrasmall(1000);
    REQUIRE(first.size() == 1);
    REQUIRE(first[0].ours_us);
    const double ours = *first[0].ours_us;
    CHECK(first[0].result == "pass");
    // The simulated stopwatch is deterministic: the same time again, within 0 %.
    const auto same = run_mnist_extrasmall(ours);
    CHECK(same[0].ok);
    CHECK(*same[0].error_pct == 0);
    // 2 % off with a 1 % tolerance, either side: a MISS.
    for (const double silicon : {ours * 1.02, ours * 0.98}) {
        const auto off = run_mnist_extrasmall(silicon);
        INFO("silicon " << silicon << " us, ours " << ours << " us");
        CHECK_FALSE(off[0].ok);
        CHECK(std::fabs(*off[0].error_pct) > 1.0);
    }
}

TEST_CASE("silicon anchors: the shipped list reads and names vectors that exist", "[bench][anchors]") {
    const auto anchors = load_anchors(std::string(AI8XSIM_SOURCE_DIR) + "/bench/silicon_anchors.yaml");
    REQUIRE_FALSE(anchors.empty());
    const fs::path shared(AI8XSIM_SHARED_DIR);
    for (const auto& a : anchors) {
        INFO(a.name);
        CHECK_FALSE(a.source.empty());
        if (a.vector.empty()) continue;
        CHECK((fs::is_directory(shared / "vectors" / a.vector) ||
               fs::is_directory(shared / "vectors-max78002" / a.vector)));
    }
}
