// `ai8xsim run --vcd/--timeline` on golden vectors: the VCD is well formed and
// its edges fall on the CNN cycles the run JSON reports (layer boundaries,
// end of the inference and interrupt, stall time, streaming spans); the
// timeline's layer and phase durations equal the JSON's; an output that
// cannot be written is refused before the run.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <set>

#include <nlohmann/json.hpp>

#include "app/run_options.h"
#include "testbench/unit/app/app_test_support.h"
#include "testbench/unit/app/vcd_reader.h"
#include "testbench/unit/test_support.h"
#include "tlm/device_config.h"
#include "build_paths.h"

using namespace ai8x;
using namespace ai8x::test;
namespace fs = std::filesystem;

namespace {

std::string vector_dir(const std::string& name) { return std::string(AI8XSIM_SHARED_DIR) + "/vectors/" + name; }

struct WaveRun {
    nlohmann::json report, timeline;
    VcdFile vcd;
    uint64_t period = 0;  // CNN clock period in VCD time units
    uint64_t start = 0;   // when the (last) inference started: cnn.busy rises
};

WaveRun run_with_waves(const std::string& vector, const std::string& tag) {
    const fs::path work = scratch("waves-" + tag);
    RunOptions o = run_options_for(vector_dir(vector), work);
    o.vcd_out = (work / "run.vcd").string();
    o.timeline_out = (work / "timeline.json").string();
    REQUIRE(run_command(o) == kRunPass);
    WaveRun w;
    w.report = read_json(o.json_out);
    w.timeline = read_json(o.timeline_out);
    w.vcd = read_vcd(o.vcd_out);
    fs::remove_all(work);
    INFO("VCD problems: " << (w.vcd.problems.empty() ? "" : w.vcd.problems.front()));
    REQUIRE(w.vcd.problems.empty());
    const double period = 1.0 / w.report["cnn_clock_hz"].get<double>() / w.vcd.tick_seconds;
    REQUIRE(period == std::round(period));  // the timescale represents the clock exactly
    w.period = uint64_t(period);
    const auto& busy = w.vcd.changes("cnn.busy");
    for (const auto& c : busy)
        if (c.value == uint64_t{1}) w.start = c.time;
    REQUIRE(w.start > 0);
    return w;
}

// Value changes of `name` within [from, to), without repeats of the same value.
std::vector<VcdFile::Change> changes_between(const VcdFile& f, const std::string& name, uint64_t from, uint64_t to) {
    std::vector<VcdFile::Change> out;
    for (const auto& c : f.changes(name))
        if (c.time >= from && c.time < to && (out.empty() || out.back().value != c.value)) out.push_back(c);
    return out;
}

// Total time `name` is 1 within [from, to].
uint64_t high_time(const VcdFile& f, const std::string& name, uint64_t from, uint64_t to) {
    uint64_t total = 0;
    std::optional<uint64_t> rose;
    for (const auto& c : f.changes(name)) {
        const uint64_t t = std::clamp(c.time, from, to);
        if (c.value == uint64_t{1} && !rose) rose = t;
        if (c.value != uint64_t{1} && rose) {
            total += t - *rose;
            rose.reset();
        }
    }
    if (rose) total += to - *rose;
    return total;
}

uint64_t cycles_of(const nlohmann::json& layer) {
    return layer["cycles"].is_null() ? 0 : layer["cycles"].get<uint64_t>();
}

// Start-up cycles: what the inference spends outside its layers and stalls.
uint64_t startup_cycles(const nlohmann::json& report) {
    uint64_t layers = 0;
    for (const auto& l : report["layers"]) layers += cycles_of(l);
    const uint64_t total = report["cnn_cycles"], stalls = report["stall_cycles"];
    REQUIRE(total >= layers + stalls);
    return total - layers - stalls;
}

// The inference's end: busy falls and the interrupt rises on its last cycle.
void check_inference_end(const WaveRun& w) {
    const uint64_t end = w.start + w.report["cnn_cycles"].get<uint64_t>() * w.period;
    const auto busy = changes_between(w.vcd, "cnn.busy", w.start, end + 1);
    REQUIRE(busy.size() == 2);
    CHECK(busy.back().time == end);
    CHECK(busy.back().value == uint64_t{0});
    const auto irq = changes_between(w.vcd, "cnn.irq", w.start, end + 1);
    REQUIRE(!irq.empty());
    CHECK(irq.front().time == end);
    CHECK(irq.front().value == uint64_t{1});
}

// Non-streaming layers run one after the other after the start-up, the
// stalls and the streaming chain: cnn.layer changes exactly at their starts.
void check_sequential_layers(const WaveRun& w) {
    const auto& layers = w.report["layers"];
    uint64_t at = startup_cycles(w.report) + w.report["stall_cycles"].get<uint64_t>();
    for (const auto& l : layers)
        if (l.contains("stream_span")) at += cycles_of(l);
    std::vector<std::pair<uint64_t, uint64_t>> expected;  // time, layer
    for (const auto& l : layers) {
        if (l.contains("stream_span") || cycles_of(l) == 0) continue;
        expected.emplace_back(w.start + at * w.period, l["layer"].get<uint64_t>());
        at += cycles_of(l);
    }
    REQUIRE(!expected.empty());
    const uint64_t end = w.start + w.report["cnn_cycles"].get<uint64_t>() * w.period;
    const auto seen = changes_between(w.vcd, "cnn.layer", expected.front().first, end);
    REQUIRE(seen.size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        INFO("layer " << expected[i].second);
        CHECK(seen[i].time == expected[i].first);
        CHECK(seen[i].value == expected[i].second);
        // Some quadrant is busy with the layer from its first cycle.
        bool any_quadrant = false;
        for (int q = 0; w.vcd.declared("cnn.q" + std::to_string(q) + ".busy"); ++q) {
            const std::string scope = "cnn.q" + std::to_string(q);
            const auto busy = changes_between(w.vcd, scope + ".busy", 0, expected[i].first + 1);
            const auto layer = changes_between(w.vcd, scope + ".layer", 0, expected[i].first + 1);
            if (!busy.empty() && busy.back().value == uint64_t{1} && !layer.empty() &&
                layer.back().value == expected[i].second)
                any_quadrant = true;
        }
        CHECK(any_quadrant);
    }
}

void check_stalls(const WaveRun& w) {
    const uint64_t end = w.start + w.report["cnn_cycles"].get<uint64_t>() * w.period;
    CHECK(high_time(w.vcd, "cnn.fifo.stall", w.start, end) == w.report["stall_cycles"].get<uint64_t>() * w.period);
}

std::vector<nlohmann::json> timeline_events(const nlohmann::json& t, const std::string& name) {
    std::vector<nlohmann::json> out;
    for (const auto& e : t["traceEvents"])
        if (e["name"] == name && e["ph"] == "X") out.push_back(e);
    return out;
}

void check_timeline(const WaveRun& w) {
    const double hz = w.report["cnn_clock_hz"];
    const auto& events = w.timeline["traceEvents"];
    REQUIRE(events.is_array());
    // Every process and thread that carries events is named.
    std::set<std::pair<int, int>> threads, named_threads;
    std::set<int> processes, named_processes;
    for (const auto& e : events) {
        if (e["ph"] == "M" && e["name"] == "process_name") named_processes.insert(e["pid"].get<int>());
        if (e["ph"] == "M" && e["name"] == "thread_name")
            named_threads.insert({e["pid"].get<int>(), e["tid"].get<int>()});
        if (e["ph"] == "X" || e["ph"] == "i") {
            processes.insert(e["pid"].get<int>());
            threads.insert({e["pid"].get<int>(), e["tid"].get<int>()});
            CHECK(e["ts"].is_number());
        }
    }
    for (int p : processes) CHECK(named_processes.count(p));
    for (const auto& t : threads) CHECK(named_threads.count(t));

    for (const auto& l : w.report["layers"]) {
        if (l.contains("stream_span") || cycles_of(l) == 0) continue;
        const auto layer_events = timeline_events(w.timeline, "layer " + std::to_string(l["layer"].get<int>()));
        REQUIRE(!layer_events.empty());
        for (const auto& e : layer_events)
            CHECK(e["dur"].get<double>() == Approx(cycles_of(l) / hz * 1e6).margin(1e-6));
    }
    for (const auto& [name, us] : w.report["phases"].items()) {
        double sum = 0;
        for (const auto& e : timeline_events(w.timeline, name))
            if (e["pid"] == 1) sum += e["dur"].get<double>();
        INFO("phase " << name);
        if (us.is_null())
            CHECK(sum == 0);
        else
            CHECK(sum == Approx(us.get<double>()).margin(1e-6));
    }
    // The interrupt comes when the inference event ends.
    const auto inference = timeline_events(w.timeline, "inference");
    REQUIRE(!inference.empty());
    const double end = inference.back()["ts"].get<double>() + inference.back()["dur"].get<double>();
    bool irq_at_end = false;
    for (const auto& e : events)
        if (e["ph"] == "i" && e["name"] == "CNN interrupt" && std::abs(e["ts"].get<double>() - end) < 1e-6)
            irq_at_end = true;
    CHECK(irq_at_end);
}

struct WaveOutcome {
    int exit_code = -1;
    std::string err;
};

WaveOutcome run_waves_cli(const std::string& args) {
    const fs::path work = scratch("waves-cli");
    const std::string cmd =
        std::string("'") + AI8XSIM_BINARY + "' " + args + " >/dev/null 2>'" + (work / "err").string() + "'";
    const int status = std::system(cmd.c_str());
    WaveOutcome o{WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(work / "err")};
    fs::remove_all(work);
    return o;
}

}  // namespace

TEST_CASE("run --vcd/--timeline: a multi-layer vector's layers fall on its JSON cycles", "[run][waves]") {
    const WaveRun w = run_with_waves("demo-mnist-extrasmall", "plain");
    REQUIRE(w.report["layers"].size() > 1);
    for (const char* s : {"cnn.busy", "cnn.layer", "cnn.passes", "cnn.irq", "cnn.q0.busy", "cnn.q0.layer",
                          "cnn.fifo.level0", "cnn.fifo.stall", "cnn.stream.layer", "cpu.sleep"}) {
        INFO(s);
        CHECK(w.vcd.declared(s));
    }
    check_inference_end(w);
    check_sequential_layers(w);
    check_stalls(w);
    // The firmware sleeps in WFI while the accelerator runs and wakes on its interrupt.
    const uint64_t end = w.start + w.report["cnn_cycles"].get<uint64_t>() * w.period;
    CHECK(high_time(w.vcd, "cpu.sleep", w.start, end) > 0);
    check_timeline(w);
}

TEST_CASE("run --vcd/--timeline: FIFO stalls and levels of a FIFO vector", "[run][waves][fifo]") {
    const WaveRun w = run_with_waves("t-test-fifo-hwc", "fifo");
    REQUIRE(w.report["stall_cycles"].get<uint64_t>() > 0);
    check_inference_end(w);
    check_sequential_layers(w);
    check_stalls(w);
    // The CPU fills the FIFOs and the CNN empties them: every level returns to 0
    // by the end of the inference and never exceeds the FIFO depth.
    const DeviceConfig cfg = load_device_config(default_device_config_path());
    uint64_t peak = 0;
    for (uint32_t f = 0; f < cfg.fifo_count; ++f) {
        const auto& level = w.vcd.changes("cnn.fifo.level" + std::to_string(f));
        REQUIRE(!level.empty());
        for (const auto& c : level) {
            REQUIRE(c.value);
            CHECK(*c.value <= cfg.fifo_depth);
            peak = std::max(peak, *c.value);
        }
        CHECK(level.back().value == uint64_t{0});
    }
    CHECK(peak > 0);
    check_timeline(w);
    uint64_t stall_events = 0;
    for (const auto& e : timeline_events(w.timeline, "FIFO stall")) stall_events += e["args"]["cycles"].get<uint64_t>();
    CHECK(stall_events == w.report["stall_cycles"].get<uint64_t>());
}

TEST_CASE("run --vcd: streaming layers scan within their JSON spans", "[run][waves][stream]") {
    const WaveRun w = run_with_waves("t-test-fifostream-15ch-hwc", "stream");
    check_inference_end(w);
    check_stalls(w);
    const uint64_t startup = startup_cycles(w.report);
    int streaming = 0;
    for (const auto& l : w.report["layers"]) {
        if (!l.contains("stream_span")) continue;
        ++streaming;
        const uint64_t layer = l["layer"];
        const uint64_t first = w.start + (startup + l["stream_span"][0].get<uint64_t>()) * w.period;
        const uint64_t last = w.start + (startup + l["stream_span"][1].get<uint64_t>()) * w.period;
        // cnn.stream.layer shows the layer whose scan position runs: from the
        // span's first cycle to its last.
        std::optional<uint64_t> shown_first, shown_last;
        const auto& changes = w.vcd.changes("cnn.stream.layer");
        for (std::size_t i = 0; i < changes.size(); ++i)
            if (changes[i].value == layer) {
                if (!shown_first) shown_first = changes[i].time;
                if (i + 1 < changes.size()) shown_last = changes[i + 1].time;
            }
        INFO("layer " << layer);
        CHECK(shown_first == first);
        CHECK(shown_last == last);
        // Its scan rows only grow.
        const auto& rows = w.vcd.changes("cnn.stream.l" + std::to_string(layer) + "_rows");
        REQUIRE(!rows.empty());
        for (std::size_t i = 1; i < rows.size(); ++i)
            if (rows[i].time > w.start) CHECK(*rows[i].value >= *rows[i - 1].value);
        CHECK(*rows.back().value > 0);
    }
    CHECK(streaming > 1);
    check_timeline(w);
}

TEST_CASE("run --vcd/--timeline: an unwritable output is refused before the run", "[run][waves][cli]") {
    const std::string vector = vector_dir("demo-mnist-extrasmall");
    for (const char* option : {"--vcd", "--timeline"}) {
        const std::string bad = "/nonexistent-ai8xsim-dir/out.file";
        const WaveOutcome o = run_waves_cli("run '" + vector + "' " + option + " " + bad);
        INFO(option << ": " << o.err);
        CHECK(o.exit_code == 2);
        CHECK(o.err.find(bad) != std::string::npos);
    }
}

TEST_CASE("run --vcd/--timeline: a run that fails still writes both files", "[run][waves][cli]") {
    // A first run gives the inference's place on the time axis; the second
    // stops half-way through it (--timeout), which is a simulation error.
    const fs::path work = scratch("waves-failed");
    const std::string vector = vector_dir("demo-mnist-extrasmall");
    const std::string cache = ai8x::test::firmware_cache();
    const std::string first = (work / "first.json").string();
    REQUIRE(run_waves_cli("run '" + vector + "' --quiet --build-dir '" + cache + "' --timeline '" + first + "'")
                .exit_code == 0);
    double start_us = -1, dur_us = 0;
    const nlohmann::json first_timeline = read_json(first);
    for (const auto& e : first_timeline["traceEvents"])
        if (e["name"] == "inference" && e["ph"] == "X") {
            start_us = e["ts"];
            dur_us = e["dur"];
        }
    REQUIRE(start_us > 0);
    REQUIRE(dur_us > 0);

    const std::string vcd = (work / "cut.vcd").string(), timeline = (work / "cut.json").string();
    const double cut_ms = (start_us + dur_us / 2) / 1000;
    const WaveOutcome o = run_waves_cli("run '" + vector + "' --quiet --build-dir '" + cache + "' --timeout " +
                                        std::to_string(cut_ms) + " --vcd '" + vcd + "' --timeline '" + timeline + "'");
    CHECK(o.exit_code == kRunSimError);
    const VcdFile f = read_vcd(vcd);
    INFO((f.problems.empty() ? "" : f.problems.front()));
    REQUIRE(f.problems.empty());
    // The inference started and never ended: busy rose once, no interrupt.
    const auto& busy = f.changes("cnn.busy");
    REQUIRE(!busy.empty());
    CHECK(busy.back().value == uint64_t{1});
    CHECK(double(busy.back().time) * f.tick_seconds * 1e6 == Approx(start_us).margin(1e-6));
    for (const auto& c : f.changes("cnn.irq")) CHECK(c.value == uint64_t{0});
    // The timeline has the phases before the cut but no finished inference.
    bool weights = false, inference = false;
    const nlohmann::json cut_timeline = read_json(timeline);
    for (const auto& e : cut_timeline["traceEvents"]) {
        weights |= e["name"] == "weights";
        inference |= e["name"] == "inference";
    }
    CHECK(weights);
    CHECK(!inference);
    fs::remove_all(work);
}
