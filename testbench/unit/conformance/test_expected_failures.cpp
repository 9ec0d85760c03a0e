// The expected-failures list (expected_failures.h): entries with their
// failure mode, malformed entries named by file and line, the reason a run
// gives, the first failing layer read from ai8xsim-layer-diff, and a mode
// that differs from the listed one, in each way it can differ.
#include <catch2/catch.hpp>

#include <csignal>
#include <sstream>
#include <string>

#include "testbench/conformance/expected_failures.h"

namespace expected_failures_test {

using namespace ai8x::conformance;
using ai8x::tools::JobOutcome;

std::vector<ExpectedFailure> parse(const std::string& text) {
    std::istringstream in(text);
    return parse_expected_failures(in, "list.txt");
}

std::string parse_error(const std::string& text) {
    try {
        parse(text);
    } catch (const CatalogError& e) {
        return e.what();
    }
    return "no error";
}

TEST_CASE("expected failures: entries name a verdict and a first failing layer or a reason",
          "[conformance][expected-failures]") {
    const auto list = parse(
        "# comment\n"
        "\n"
        "t-a  FAIL  layer 3   # why\n"
        "t-b\tERROR\tbus fault: read of 4 byte(s) at 0x51902000\n"
        "t-c FAIL Data mismatch (1/100)\n");
    REQUIRE(list.size() == 3);
    CHECK(list[0].name == "t-a");
    CHECK(list[0].verdict == "FAIL");
    CHECK(list[0].layer == 3);
    CHECK(list[0].reason.empty());
    CHECK(list[0].where == "list.txt:3");
    CHECK(list[1].verdict == "ERROR");
    CHECK_FALSE(list[1].layer);
    CHECK(list[1].reason == "bus fault: read of 4 byte(s) at 0x51902000");
    CHECK(list[2].reason == "Data mismatch (1/100)");
    CHECK(describe(list[0]) == "FAIL layer 3");
    CHECK(describe(list[1]) == "ERROR bus fault: read of 4 byte(s) at 0x51902000");
}

TEST_CASE("expected failures: a malformed entry is named by file and line", "[conformance][expected-failures]") {
    CHECK(parse_error("# ok\nt-a\n") ==
          "list.txt:2: expected 'NAME VERDICT layer N' or 'NAME VERDICT REASON', got 't-a'");
    CHECK(parse_error("t-a FAIL\n").find("list.txt:1: expected") == 0);
    CHECK(parse_error("t-a TIMEOUT slow\n").find("list.txt:1: verdict 'TIMEOUT' is not an expected failure mode") == 0);
    CHECK(parse_error("t-a NOT-RUN x\n").find("list.txt:1: verdict 'NOT-RUN'") == 0);
    CHECK(parse_error("t-a ERROR layer 2\n").find("list.txt:1: 'layer N' names where a FAIL's output") == 0);
    CHECK(parse_error("t-a FAIL layer 1\n\nt-a FAIL layer 2\n") == "list.txt:3: t-a is listed twice");
}

TEST_CASE("expected failures: a listed name that matches no vector is stale", "[conformance][expected-failures]") {
    const auto list = parse("t-a FAIL layer 1\nt-gone ERROR x\n");
    const std::vector<VectorInfo> catalog = {{"t-a", "/v/t-a", "plain", {}}, {"t-b", "/v/t-b", "plain", {}}};
    CHECK(stale_names(list, catalog) == std::vector<std::string>{"t-gone"});
    CHECK(stale_names(parse("t-b FAIL layer 1\n"), catalog).empty());
}

TEST_CASE("expected failures: the reason of a run that did not pass", "[conformance][expected-failures]") {
    JobOutcome exited;
    exited.exit_code = 3;
    SECTION("an error names the run's error") {
        CHECK(failure_reason("ERROR", exited, R"({"error": "bus fault: read at 0x51902000", "console": "x"})", "") ==
              "bus fault: read at 0x51902000");
    }
    SECTION("an error without a JSON result names the run's first message in its log") {
        CHECK(failure_reason("ERROR", exited, "",
                             "[warning] something\nai8xsim run: building the firmware of X failed\n"
                             "ai8xsim run: later\n") == "building the firmware of X failed");
    }
    SECTION("a failed known-answer test names the firmware's report") {
        const std::string json = R"({"error": null, "console": "Waiting...\n\n*** CNN Inference Test t ***\n)"
                                 R"(Data mismatch (1/100) at address 0x50403000.\n\n*** FAIL ***\n"})";
        CHECK(failure_reason("FAIL", exited, json, "") == "Data mismatch (1/100) at address 0x50403000.");
        CHECK(failure_reason("FAIL", exited, R"({"console": "no header"})", "") == "the known-answer test failed");
    }
    SECTION("the runner's own verdicts") {
        JobOutcome crashed;
        crashed.signalled = true;
        crashed.signal = SIGSEGV;
        CHECK(failure_reason("CRASH", crashed, "", "").find("killed by signal 11 (") == 0);
        CHECK(failure_reason("TIMEOUT", JobOutcome{}, "", "") == "killed at the --timeout limit");
        CHECK(failure_reason("NOT-RUN", JobOutcome{}, "", "") == "not started before the --budget ran out");
        CHECK(failure_reason("ERROR", exited, "{malformed", "") == "no reason in the run's JSON result or log");
    }
}

TEST_CASE("expected failures: the first failing layer from ai8xsim-layer-diff", "[conformance][expected-failures]") {
    ObservedFailure o;
    read_layer_diff(
        "layer 0: OK (64x10x10)\nlayer 1: no dump\nlayer 3: MISMATCH at channel 0 row 0 column 0: "
        "expected -4, actual 4\n",
        o);
    CHECK(o.layer == 3);
    CHECK(o.layer_note == "layer 3: MISMATCH at channel 0 row 0 column 0: expected -4, actual 4");
    read_layer_diff("layer 0: OK (8x20x20)\nlayer 1: MISMATCH shape: expected 8x10x10, dump has 8x9x9\n", o);
    CHECK(o.layer == 1);
    read_layer_diff("layer 0: OK (8x20x20)\nlayer 1: OK (8x10x10)\n", o);
    CHECK_FALSE(o.layer);
    CHECK(o.layer_note == "no layer differs from the generator's log (layer 1: OK (8x10x10))");
}

TEST_CASE("expected failures: a run that fails otherwise than listed is named, in each way it can differ",
          "[conformance][expected-failures]") {
    const auto list = parse("t-a FAIL layer 1\nt-b ERROR bus fault: read of 4 byte(s) at 0x51902000\n");
    ObservedFailure fail_at_1{"FAIL", "Data mismatch", 1, "layer 1: MISMATCH at ..."};
    ObservedFailure bus_fault{"ERROR", "bus fault: read of 4 byte(s) at 0x51902000 answered ...", {}, ""};
    CHECK_FALSE(mode_difference(list[0], fail_at_1));
    CHECK_FALSE(mode_difference(list[1], bus_fault));

    ObservedFailure fail_at_2 = fail_at_1;
    fail_at_2.layer = 2;
    fail_at_2.layer_note = "layer 2: MISMATCH at channel 4";
    CHECK(mode_difference(list[0], fail_at_2) == "listed as FAIL layer 1, but layer 2: MISMATCH at channel 4");
    ObservedFailure no_layer = fail_at_1;
    no_layer.layer.reset();
    no_layer.layer_note = "no layer differs from the generator's log";
    CHECK(mode_difference(list[0], no_layer) ==
          "listed as FAIL layer 1, but no layer differs from the generator's log");
    ObservedFailure timed_out{"TIMEOUT", "killed at the --timeout limit", {}, ""};
    CHECK(mode_difference(list[0], timed_out) ==
          "listed as FAIL layer 1, but its verdict is TIMEOUT killed at the --timeout limit");
    ObservedFailure other_fault = bus_fault;
    other_fault.reason = "bus fault: read of 4 byte(s) at 0x59802000 answered ...";
    CHECK(mode_difference(list[1], other_fault) ==
          "listed as ERROR bus fault: read of 4 byte(s) at 0x51902000, but its reason is: bus fault: read of 4 "
          "byte(s) at 0x59802000 answered ...");
    CHECK(mode_difference(list[1], fail_at_1) ==
          "listed as ERROR bus fault: read of 4 byte(s) at 0x51902000, but its verdict is FAIL layer 1 (Data "
          "mismatch)");
}

}  // namespace expected_failures_test
