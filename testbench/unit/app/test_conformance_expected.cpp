// The conformance runner's expected-failures check, end to end on real golden
// vectors: the shipped entries of t-test-multilayer-eltwise (FAIL, first
// failing layer 1) and t-test-widegap (ERROR, its bus fault) hold; a list that
// names another layer, another reason or another verdict, a listed name that
// matches no vector, and a listed vector that passes each fail the run, with
// a line that says which and how.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include <fmt/format.h>

#include "testbench/unit/app/app_test_support.h"
#include "testbench/unit/app/tool_test_support.h"
#include "build_paths.h"

namespace conformance_expected_test {

using namespace ai8x::test;
namespace fs = std::filesystem;

const fs::path kShared = AI8XSIM_SHARED_DIR;
const fs::path kLists = fs::path(AI8XSIM_SOURCE_DIR) / "testbench/conformance";

// The entry of `name` in a shipped list, comment removed.
std::string shipped_entry(const std::string& list, const std::string& name) {
    for (const auto& line : file_lines(kLists / list))
        if (line.rfind(name + " ", 0) == 0) return line.substr(0, line.find('#'));
    FAIL("no entry for " << name << " in " << list);
    return "";
}

// Two listed failures of two devices and one vector that passes.
fs::path sample_vectors(const fs::path& work) {
    const fs::path vectors = work / "vectors";
    fs::create_directories(vectors);
    fs::create_directory_symlink(kShared / "vectors/t-test-multilayer-eltwise", vectors / "t-test-multilayer-eltwise");
    fs::create_directory_symlink(kShared / "vectors-max78002/t-test-widegap", vectors / "t-test-widegap");
    fs::create_directory_symlink(kShared / "vectors/t-test-conv1d-1", vectors / "t-test-conv1d-1");
    return vectors;
}

// The runner over `vectors` with `list` as its expected failures; `resume`
// re-judges the outcomes (and layer dumps) of the first run without running again.
ShellRun judge(const fs::path& work, const fs::path& vectors, const std::string& list, bool resume) {
    const fs::path list_path = work / "list.txt";
    std::ofstream(list_path) << list;
    return run_shell(fmt::format("'{}' '{}' --ai8xsim '{}' --work-dir '{}' --expected-failures '{}' -j 2 {}",
                                 AI8XSIM_CONFORMANCE_BINARY, vectors.string(), AI8XSIM_BINARY,
                                 (work / "results").string(), list_path.string(), resume ? "--resume" : ""),
                     work);
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST_CASE("conformance: an expected failure must fail as listed, and every listed name must name a vector",
          "[conformance][expected-failures]") {
    const fs::path work = scratch("conformance-expected");
    const fs::path vectors = sample_vectors(work);
    const std::string eltwise = shipped_entry("expected_failures.txt", "t-test-multilayer-eltwise");
    const std::string widegap = shipped_entry("expected_failures_max78002.txt", "t-test-widegap");
    const std::string shipped = eltwise + "\n" + widegap + "\n";

    const ShellRun as_listed = judge(work, vectors, shipped, false);
    INFO(as_listed.out + as_listed.err);
    CHECK(as_listed.exit_code == 0);
    CHECK(has(as_listed.out, "expected failure t-test-multilayer-eltwise: FAIL layer 1 (Data mismatch"));
    CHECK(has(as_listed.out, "expected failure t-test-widegap: ERROR bus fault: read of 4 byte(s) at 0x51902000"));
    CHECK(has(as_listed.out, "1 passed, 2 failed (2 expected: t-test-multilayer-eltwise, t-test-widegap)\n"));

    // The same outcomes judged against another list: it must fail the run with `line`.
    const auto rejudged = [&](const std::string& list, const std::string& line) {
        const ShellRun r = judge(work, vectors, list, true);
        INFO(r.out + r.err);
        CHECK(r.exit_code == 1);
        CHECK(has(r.out, line));
        return r.out;
    };
    SECTION("another first failing layer") {
        const std::string out =
            rejudged("t-test-multilayer-eltwise FAIL layer 2\n" + widegap,
                     "CHANGED t-test-multilayer-eltwise: listed as FAIL layer 2, but layer 1: MISMATCH at channel 0 "
                     "row 0 column 0");
        CHECK(has(out,
                  "1 passed, 2 failed (1 expected: t-test-widegap), 1 failed otherwise than listed: "
                  "t-test-multilayer-eltwise\n"));
    }
    SECTION("another reason") {
        rejudged(eltwise + "\nt-test-widegap ERROR at 0x59802000\n",
                 "CHANGED t-test-widegap: listed as ERROR at 0x59802000, but its reason is: bus fault: read of 4 "
                 "byte(s) at 0x51902000");
    }
    SECTION("another verdict") {
        rejudged(eltwise + "\nt-test-widegap FAIL layer 1\n",
                 "CHANGED t-test-widegap: listed as FAIL layer 1, but its verdict is ERROR bus fault");
    }
    SECTION("a stale name") {
        const std::string out = rejudged(shipped + "t-test-renamed FAIL layer 0\n", "STALE t-test-renamed: listed in");
        CHECK(has(out,
                  "(2 expected: t-test-multilayer-eltwise, t-test-widegap), 1 listed name(s) match no "
                  "vector: t-test-renamed\n"));
    }
    SECTION("a listed vector that passes") {
        rejudged(shipped + "t-test-conv1d-1 FAIL layer 0\n", "XPASS t-test-conv1d-1: listed as an expected failure");
    }
    SECTION("a malformed list is refused before anything runs") {
        const ShellRun r = judge(work, vectors, "t-test-widegap TIMEOUT slow\n", true);
        CHECK(r.exit_code == 2);
        CHECK(has(r.err, "list.txt:1: verdict 'TIMEOUT' is not an expected failure mode"));
    }
    fs::remove_all(work);
}

}  // namespace conformance_expected_test
