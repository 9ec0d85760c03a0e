// The report reads whole numbers from a run JSON it did not write (older or
// hand-edited files): a fraction, a negative number or one past the range
// is refused with a message naming the field, never converted (converting
// such a double to an integer is undefined behaviour, which the fuzz harness
// found: testbench/fuzz/regressions/fuzz_run_report/memory-words-8e22).
#include <catch2/catch.hpp>

#include <string>

#include <nlohmann/json.hpp>

#include "app/report_html.h"
#include "testbench/unit/fuzz_regression.h"

using ai8x::ReportInputError;
using nlohmann::json;

namespace {

// The message render_report_html() refuses `run` with ("" if it renders).
std::string refusal(const json& run) {
    try {
        (void)ai8x::render_report_html(run, "t");
    } catch (const ReportInputError& e) {
        return e.what();
    }
    return "";
}

json minimal_run() {
    return json::parse(R"({"result": "pass", "cnn_cycles": 100, "layers": [{"layer": 0, "cycles": 100}],
                           "memory": [{"memory": "data", "instance": 0, "words": 8192, "used": 4,
                                       "ranges": [[0, 3]]}]})");
}

}  // namespace

TEST_CASE("report: whole numbers are checked before they are converted", "[report][fuzz]") {
    REQUIRE(refusal(minimal_run()).empty());

    json run = minimal_run();
    run["memory"][0]["words"] = 8.18889e22;
    CHECK_THAT(refusal(run), Catch::Contains("memory[].words") && Catch::Contains("whole number"));

    run = minimal_run();
    run["cnn_cycles"] = -1;
    CHECK_THAT(refusal(run), Catch::Contains("cnn_cycles"));

    run = minimal_run();
    run["layers"][0]["layer"] = 1.5;
    CHECK_THAT(refusal(run), Catch::Contains("layers[0].layer"));

    run = minimal_run();
    run["memory"][0]["instance"] = 4294967296ULL;
    CHECK_THAT(refusal(run), Catch::Contains("too large"));

    run = minimal_run();
    run["memory"][0]["ranges"][0][1] = 1e300;
    CHECK_THAT(refusal(run), Catch::Contains("memory[].ranges"));
}

TEST_CASE("report: the fuzzer's run JSON with a word count of 8e22 is refused by name", "[report][fuzz]") {
    const json run = json::parse(ai8x::test::fuzz_regression_text("fuzz_run_report", "memory-words-8e22"));
    CHECK_THAT(refusal(run), Catch::Contains("whole number"));
}
