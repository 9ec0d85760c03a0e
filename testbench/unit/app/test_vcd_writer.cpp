// The VCD writer on its own: nested scopes, identifier codes past one
// character, changes given out of time order, several changes of one signal
// at one time (the last wins, a return to the old value writes nothing), x
// values, vector widths growing to fit, and an unwritable path.
#include <catch2/catch.hpp>

#include <filesystem>
#include <set>
#include <stdexcept>

#include "app/vcd_writer.h"
#include "testbench/unit/app/app_test_support.h"
#include "testbench/unit/app/vcd_reader.h"

using namespace ai8x;
using namespace ai8x::test;
namespace fs = std::filesystem;

TEST_CASE("vcd writer: identifiers stay unique past one character", "[vcd]") {
    std::set<std::string> ids;
    for (std::size_t n = 0; n < 10000; ++n) {
        const std::string id = VcdWriter::identifier(n);
        for (char c : id) REQUIRE((c >= '!' && c <= '~'));
        CHECK(ids.insert(id).second);
    }
}

TEST_CASE("vcd writer: scopes, out-of-order changes and same-time changes", "[vcd]") {
    const fs::path work = scratch("vcd-writer");
    const std::string path = (work / "t.vcd").string();
    VcdWriter w("1 ps");
    const int busy = w.add_signal("cnn", "busy", 1, 0);
    const int layer = w.add_signal("cnn.q0", "layer", 2);
    std::vector<int> many;
    for (int i = 0; i < 120; ++i) many.push_back(w.add_signal("cnn.q1", "s" + std::to_string(i), 1, 0));
    w.change(300, busy, 0);
    w.change(100, busy, 1);
    w.change(100, layer, 5);  // wider than declared: the vector grows to 3 bits
    w.change(200, layer, 6);
    w.change(200, layer, 5);  // back to the old value at the same time: no change at 200
    w.change(300, layer, std::nullopt);
    w.change(150, many.back(), 1);
    w.write(path);

    const VcdFile f = read_vcd(path);
    INFO((f.problems.empty() ? "" : f.problems.front()));
    REQUIRE(f.problems.empty());
    CHECK(f.timescale == "1 ps");
    CHECK(f.tick_seconds == Approx(1e-12));
    REQUIRE(f.declared("cnn.busy"));
    REQUIRE(f.declared("cnn.q0.layer"));
    REQUIRE(f.declared("cnn.q1.s119"));
    CHECK(f.width_of.at(f.id_of.at("cnn.q0.layer")) == 3);

    const auto& b = f.changes("cnn.busy");
    REQUIRE(b.size() == 3);  // the $dumpvars value, then the two edges in time order
    CHECK((b[1].time == 100 && b[1].value == uint64_t{1}));
    CHECK((b[2].time == 300 && b[2].value == uint64_t{0}));
    const auto& l = f.changes("cnn.q0.layer");
    REQUIRE(l.size() == 3);
    CHECK(!l[0].value);
    CHECK((l[1].time == 100 && l[1].value == uint64_t{5}));
    CHECK((l[2].time == 300 && !l[2].value));
    const auto& s = f.changes("cnn.q1.s119");
    REQUIRE(s.size() == 2);
    CHECK((s[1].time == 150 && s[1].value == uint64_t{1}));
    fs::remove_all(work);
}

TEST_CASE("vcd writer: an unwritable path throws naming it and leaves nothing", "[vcd]") {
    VcdWriter w("1 ps");
    w.add_signal("cnn", "busy", 1, 0);
    const std::string bad = "/nonexistent-ai8xsim-dir/t.vcd";
    try {
        w.write(bad);
        FAIL("no exception");
    } catch (const std::runtime_error& e) {
        CHECK(std::string(e.what()).find(bad) != std::string::npos);
    }
}
