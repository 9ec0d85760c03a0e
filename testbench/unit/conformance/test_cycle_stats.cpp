// Cycle statistics of the conformance runner on synthetic run results: the
// thresholds of issue #6 at their boundaries, missing figures and data, FIFO
// stalls and streaming vectors kept out of the judgement.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "testbench/conformance/cycle_stats.h"

using namespace ai8x::conformance;

namespace {

LayerCycles layer(int n, std::optional<uint64_t> ours, std::optional<uint64_t> theirs, bool streaming = false) {
    return LayerCycles{n, ours, theirs, streaming};
}

// A passing vector whose total matches its estimate unless told otherwise.
VectorCycles vector_of(const std::string& name, std::vector<LayerCycles> layers, const std::string& kind = "plain") {
    VectorCycles v;
    v.name = name;
    v.kind = kind;
    v.verdict = "PASS";
    v.has_data = true;
    v.layers = std::move(layers);
    v.cnn_cycles = 1000;
    v.estimate_total = 1000;
    return v;
}

// `exact` layers equal to their estimate plus the given extra layers, one vector each.
std::vector<VectorCycles> exact_layers(int exact) {
    std::vector<VectorCycles> vs;
    for (int i = 0; i < exact; ++i) vs.push_back(vector_of("v" + std::to_string(i), {layer(0, 500, 500)}));
    return vs;
}

bool last_line_is(const std::string& text, const std::string& prefix) {
    const auto end = text.find_last_not_of('\n');
    const auto begin = text.rfind('\n', end);
    const std::string last = text.substr(begin == std::string::npos ? 0 : begin + 1, end - begin);
    return last.rfind(prefix, 0) == 0;
}

}  // namespace

TEST_CASE("a layer exactly 2 % off is within the limit, one cycle more is not", "[cycle_stats]") {
    auto vs = exact_layers(19);
    vs.push_back(vector_of("edge", {layer(0, 102, 100)}));
    CycleStats s = compute_cycle_stats(vs);
    CHECK(s.layers_compared == 20);
    CHECK(s.layers_exact == 19);
    CHECK(s.layers_within == 20);
    CHECK(s.unmet.empty());
    REQUIRE(s.worst_layer);
    CHECK(s.worst_layer->vector == "edge");
    CHECK(s.worst_layer->error == Approx(0.02));
    CHECK(last_line_is(format_cycle_stats(s), "timing: criteria met"));

    vs.back().layers[0].ours = 103;
    s = compute_cycle_stats(vs);
    CHECK(s.layers_within == 19);
    REQUIRE(s.layers_outside.size() == 1);
    CHECK(s.layers_outside[0].vector == "edge");
    CHECK(!s.unmet.empty());
    CHECK(last_line_is(format_cycle_stats(s), "timing: criteria NOT met: 1 layer(s) beyond 2.00 %"));
}

TEST_CASE("95 % exact layers is enough, fewer is not", "[cycle_stats]") {
    auto vs = exact_layers(19);
    vs.push_back(vector_of("close", {layer(0, 99, 100)}));  // 1 %: within, not exact
    CHECK(compute_cycle_stats(vs).unmet.empty());           // 19 of 20 = 95 %

    vs[0].layers[0].ours = 501;  // 18 of 20 = 90 %
    const CycleStats s = compute_cycle_stats(vs);
    CHECK(s.layers_exact == 18);
    CHECK(s.layers_within == 20);
    REQUIRE(s.unmet.size() == 1);
    CHECK(s.unmet[0].find("90.0 % of layers exact") != std::string::npos);
}

TEST_CASE("a total exactly 1 % off is within the limit, one cycle more is not", "[cycle_stats]") {
    auto vs = exact_layers(3);
    vs[1].cnn_cycles = 1010;
    CycleStats s = compute_cycle_stats(vs);
    CHECK(s.totals_compared == 3);
    CHECK(s.totals_within == 3);
    CHECK(s.unmet.empty());
    REQUIRE(s.worst_total);
    CHECK(s.worst_total->vector == "v1");

    vs[1].cnn_cycles = 1011;
    s = compute_cycle_stats(vs);
    CHECK(s.totals_within == 2);
    REQUIRE(s.unmet.size() == 1);
    CHECK(s.unmet[0] == "1 total(s) beyond 1.00 %");
}

TEST_CASE("a layer or total without a figure is reported and fails the criteria", "[cycle_stats]") {
    auto vs = exact_layers(20);
    vs.push_back(vector_of("no-estimate", {layer(0, 500, 500), layer(1, 300, std::nullopt)}));
    CycleStats s = compute_cycle_stats(vs);
    CHECK(s.layers_compared == 21);  // the layer without an estimate is not compared
    REQUIRE(s.layers_without_figure.size() == 1);
    CHECK(s.layers_without_figure[0] == "no-estimate layer 1: no estimate");
    CHECK(!s.unmet.empty());

    vs.back().layers[1].theirs = 300;
    vs.back().estimate_total.reset();
    s = compute_cycle_stats(vs);
    REQUIRE(s.layers_without_figure.size() == 1);
    CHECK(s.layers_without_figure[0] == "no-estimate: no total estimate");
    CHECK(s.totals_compared == 20);
    CHECK(!s.unmet.empty());
}

TEST_CASE("streaming vectors are shown beside their estimate but not judged", "[cycle_stats]") {
    auto vs = exact_layers(20);
    // The generator's rule: a streaming layer costs its count x 1.5.
    VectorCycles st =
        vector_of("stream", {layer(0, 200, 300, true), layer(1, 100, 150, true), layer(2, 40, 40)}, "streaming");
    st.cnn_cycles = 400;
    st.stall_cycles = 59;
    st.estimate_total = 491;
    vs.push_back(st);
    const CycleStats s = compute_cycle_stats(vs);
    CHECK(s.unmet.empty());
    CHECK(s.judged_vectors == 20);
    CHECK(s.layers_compared == 20);
    REQUIRE(s.streaming_rows.size() == 1);
    CHECK(s.streaming_rows[0].chain_layers == 2);
    CHECK(s.streaming_rows[0].chain_ours == 300);
    CHECK(s.streaming_rows[0].chain_theirs == 450);
    REQUIRE(s.streaming_layer_ratios.size() == 2);
    CHECK(s.streaming_layer_ratios[0] == Approx(2.0 / 3.0));
    CHECK(s.chain_free_layers == 1);
    CHECK(s.chain_free_exact == 1);
    const std::string text = format_cycle_stats(s);
    CHECK(text.find("stream") != std::string::npos);
    CHECK(text.find("0.667") != std::string::npos);
}

TEST_CASE("a failed vector is missing data that gates unless it is an expected failure", "[cycle_stats]") {
    auto vs = exact_layers(20);
    VectorCycles broken;
    broken.name = "broken";
    broken.kind = "plain";
    broken.verdict = "TIMEOUT";
    vs.push_back(broken);
    CycleStats s = compute_cycle_stats(vs);
    REQUIRE(s.missing.size() == 1);
    CHECK(s.missing[0] == "broken (TIMEOUT)");
    REQUIRE(s.unmet.size() == 1);
    CHECK(s.unmet[0] == "1 vector(s) without timing data");

    vs.back().expected_failure = true;
    s = compute_cycle_stats(vs);
    CHECK(s.missing.empty());
    REQUIRE(s.missing_expected.size() == 1);
    CHECK(s.unmet.empty());
    CHECK(format_cycle_stats(s).find("broken (TIMEOUT)") != std::string::npos);
}

TEST_CASE("a FIFO vector's total is compared without its input stalls", "[cycle_stats]") {
    auto vs = exact_layers(20);
    VectorCycles fifo = vector_of("fifo", {layer(0, 385, 385)}, "fifo");
    fifo.cnn_cycles = 736;
    fifo.stall_cycles = 351;
    fifo.estimate_total = 385;
    vs.push_back(fifo);
    CycleStats s = compute_cycle_stats(vs);
    CHECK(s.unmet.empty());
    REQUIRE(s.fifo_rows.size() == 1);
    CHECK(s.fifo_rows[0].work == 385);

    vs.back().stall_cycles = 300;  // 51 cycles of work the estimate does not have
    s = compute_cycle_stats(vs);
    CHECK(s.totals_outside.size() == 1);
}

TEST_CASE("run JSON is read field by field, with a message for a bad one", "[cycle_stats]") {
    const nlohmann::json run = {{"cnn_cycles", 1234},
                                {"stall_cycles", 34},
                                {"estimate_total", 1200},
                                {"layers",
                                 {{{"layer", 0}, {"cycles", 1000}, {"estimate", 1000}},
                                  {{"layer", 1}, {"cycles", 199}, {"estimate", nullptr}, {"stream_span", {5, 900}}}}}};
    VectorCycles v;
    CHECK(!read_run_cycles(run, v));
    CHECK(v.has_data);
    CHECK(v.cnn_cycles == 1234);
    CHECK(v.stall_cycles == 34);
    CHECK(v.estimate_total == 1200u);
    REQUIRE(v.layers.size() == 2);
    CHECK(v.layers[0].theirs == 1000u);
    CHECK(!v.layers[0].streaming);
    CHECK(v.layers[1].ours == 199u);
    CHECK(!v.layers[1].theirs);
    CHECK(v.layers[1].streaming);

    nlohmann::json bad = run;
    bad.erase("stall_cycles");
    const auto problem = read_run_cycles(bad, v);
    REQUIRE(problem);
    CHECK(problem->find("stall_cycles") != std::string::npos);
    CHECK(!v.has_data);

    bad = run;
    bad["layers"][0]["cycles"] = "many";
    REQUIRE(read_run_cycles(bad, v));
    CHECK(!v.has_data);
}

TEST_CASE("vectors without a generator estimate are counted as not judged, never pass or fail", "[cycle_stats]") {
    auto vs = exact_layers(20);
    // A MAX78002 vector: no estimate anywhere, whatever its run gave.
    VectorCycles passed = vector_of("m2-pass", {layer(0, 500, std::nullopt)});
    passed.estimate_total.reset();
    passed.has_estimate = false;
    VectorCycles failed;
    failed.name = "m2-fail";
    failed.kind = "plain";
    failed.verdict = "FAIL";
    failed.has_estimate = false;
    vs.push_back(passed);
    vs.push_back(failed);
    CycleStats s = compute_cycle_stats(vs);
    CHECK(s.judged_vectors == 20);
    CHECK(s.layers_compared == 20);
    CHECK(s.missing.empty());
    CHECK(s.layers_without_figure.empty());
    CHECK(s.without_estimate == std::vector<std::string>{"m2-pass", "m2-fail"});
    CHECK(s.unmet.empty());
    std::string text = format_cycle_stats(s);
    CHECK(text.find("not judged (the generator gave no latency estimate): 2 vector(s)") != std::string::npos);
    CHECK(last_line_is(text, "timing: criteria met"));

    // Only vectors without an estimate: nothing is judged, and the runner says so.
    s = compute_cycle_stats({passed, failed});
    CHECK(s.judged_vectors == 0);
    text = format_cycle_stats(s);
    CHECK(last_line_is(text, "timing: not judged (no vector has a generator estimate)"));
    CHECK(text.find("timing: criteria met") == std::string::npos);
}
