// The conformance runner's results file (result_log.h) and the appendable
// result files under it (tools/result_file.h): outcomes survive a round trip,
// a malformed line is named by file and line, a torn last line is dropped on
// resume, and a file of another kind is refused.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "testbench/conformance/result_log.h"
#include "testbench/conformance/vector_catalog.h"
#include "testbench/unit/test_support.h"
#include "tools/result_file.h"

using namespace ai8x::conformance;
using ai8x::tools::AppendFile;
using ai8x::tools::ResultFileError;
namespace fs = std::filesystem;

namespace {

fs::path scratch_file(const std::string& tag) {
    const fs::path dir = fs::temp_directory_path() / ("ai8xsim-result-log-" + tag + "-" + std::to_string(getpid()));
    fs::create_directories(dir);
    return dir / "results.jsonl";
}

}  // namespace

TEST_CASE("result log: outcomes survive the round trip through a line", "[conformance][results]") {
    JobOutcome timed_out;
    timed_out.timed_out = true;
    timed_out.wall_seconds = 600.25;
    JobOutcome crashed;
    crashed.signalled = true;
    crashed.signal = 11;
    JobOutcome failed;
    failed.exit_code = 1;
    const auto back = parse_outcome_lines(
        {outcome_line("a", timed_out), outcome_line("b", crashed), outcome_line("c", failed)}, "r.jsonl");
    REQUIRE(back.size() == 3);
    CHECK(back.at("a").timed_out);
    CHECK(back.at("a").wall_seconds == 600.25);
    CHECK(back.at("b").signalled);
    CHECK(back.at("b").signal == 11);
    CHECK(back.at("c").exit_code == 1);
    CHECK_FALSE(back.at("c").timed_out);
}

TEST_CASE("result log: a malformed line is named by file and line", "[conformance][results]") {
    JobOutcome ok;
    ok.exit_code = 0;
    try {
        parse_outcome_lines({outcome_line("a", ok), R"({"vector":"b","exit_code":"zero"})"}, "w/results.jsonl");
        FAIL("no error");
    } catch (const CatalogError& e) {
        // Line 3: the header is line 1.
        CHECK(std::string(e.what()).find("w/results.jsonl:3") != std::string::npos);
        CHECK(std::string(e.what()).find("exit_code") != std::string::npos);
    }
    CHECK_THROWS_AS(parse_outcome_lines({"not json"}, "x"), CatalogError);
}

TEST_CASE("result file: appended lines are kept, a torn last line is dropped on resume", "[conformance][results]") {
    const fs::path path = scratch_file("torn");
    {
        AppendFile f(path.string(), "# header", false);
        f.append("one");
        f.append("two");
    }
    CHECK(ai8x::test::slurp(path) == "# header\none\ntwo\n");
    std::ofstream(path, std::ios::app) << "thr";  // killed inside the write of "three"
    {
        AppendFile f(path.string(), "# header", true);
        CHECK(f.take_lines() == std::vector<std::string>{"one", "two"});
        f.append("three");
    }
    CHECK(ai8x::test::slurp(path) == "# header\none\ntwo\nthree\n");
    // Without resume the file starts anew.
    {
        AppendFile f(path.string(), "# header", false);
        CHECK(f.take_lines().empty());
    }
    CHECK(ai8x::test::slurp(path) == "# header\n");
    fs::remove_all(path.parent_path());
}

TEST_CASE("result file: resuming a file with another header is refused and leaves it alone", "[conformance][results]") {
    const fs::path path = scratch_file("header");
    std::ofstream(path) << "a,b,verdict\n1,2,PASS\n";
    try {
        AppendFile f(path.string(), "a,verdict", true);
        FAIL("no error");
    } catch (const ResultFileError& e) {
        CHECK(std::string(e.what()).find(path.string()) != std::string::npos);
    }
    CHECK(ai8x::test::slurp(path) == "a,b,verdict\n1,2,PASS\n");
    fs::remove_all(path.parent_path());
}
