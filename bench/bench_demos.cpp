// ai8xsim-bench: simulation speed of the demo vectors (not a test: timings
// depend on the machine, so this is run by hand and prints a table).
//
// For every demo-* vector (or any other selection: --vectors, --prefix, --glob,
// --largest): one untimed warm-up run builds the firmware into the cache, then
// a timed `ai8xsim run --json` gives the whole-run wall time (the firmware
// build is then a cache hit), the child's peak RSS (wait4), and from the JSON
// the CNN cycles, the CNN clock and the inference wall time.
// Then the silicon anchors (bench/silicon_anchors.*): the firmware's own
// stopwatch on the simulator against the time the same firmware printed on a board.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <fcntl.h>
#include <fnmatch.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/child_run.h"
#include "bench/silicon_anchors.h"
#include "build_paths.h"

namespace fs = std::filesystem;

namespace {

using ai8x::bench::run_child;
using Child = ai8x::bench::ChildRun;

struct Row {
    std::string name, result = "error";
    double cycles = 0, clock_hz = 0, silicon_s = 0, infer_s = -1, ratio = -1, whole_s = 0, rss_mb = 0;
    bool ratio_ok = false, whole_ok = true, rss_ok = false;
};

// One vector on one build: a warm-up run caches the firmware, then `repeat`
// timed runs; the fastest whole run and the fastest inference count.
Row measure(const std::string& binary, const fs::path& d, int repeat, const fs::path& json, bool warm = false) {
    Row r;
    r.name = d.filename().string();
    const std::vector<std::string> args{binary, "run", d.string(), "--quiet", "--json", json.string()};
    if (!warm) run_child(args);  // warm-up: builds and caches the firmware
    Child best;
    for (int i = 0; i < repeat; ++i) {
        fs::remove(json);
        Child c = run_child(args);
        if (i == 0 || c.wall_s < best.wall_s) best = c;
        std::ifstream in(json);
        nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
        if (j.is_discarded() || !j.is_object()) continue;
        r.result = j.value("result", std::string("error"));
        r.cycles = j.value("cnn_cycles", 0.0);
        r.clock_hz = j.value("cnn_clock_hz", 0.0);
        if (j.contains("inference_wall_seconds") && j["inference_wall_seconds"].is_number()) {
            const double s = j["inference_wall_seconds"].get<double>();
            r.infer_s = r.infer_s < 0 ? s : std::min(r.infer_s, s);
        }
    }
    r.whole_s = best.wall_s;
    r.rss_mb = double(best.maxrss_kb) / 1024.0;
    r.silicon_s = r.clock_hz > 0 ? r.cycles / r.clock_hz : 0;
    if (r.infer_s >= 0 && r.silicon_s > 0) r.ratio = r.infer_s / r.silicon_s;
    return r;
}

// CNN cycles of one untimed run (which also caches the firmware); 0 if it failed.
double cycles_of(const std::string& binary, const fs::path& d, const fs::path& json) {
    fs::remove(json);
    run_child({binary, "run", d.string(), "--quiet", "--json", json.string()});
    std::ifstream in(json);
    nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    return j.is_object() ? j.value("cnn_cycles", 0.0) : 0.0;
}

}  // namespace

// What the speed table times and the targets it holds the rows to.
struct SpeedOptions {
    std::vector<std::string> folders{AI8XSIM_DEFAULT_VECTORS};
    std::string binary = AI8XSIM_BINARY_PATH, filter = "demo-", glob;
    std::string whole_vector = "demo-kws20_v3";
    double max_ratio = 2, max_whole_s = 2, max_rss_mb = 300;
    int repeat = 1;
    std::size_t largest = 0;
    std::string reference = "demo-mnist";
    std::string baseline;
    double max_slowdown_pct = 20;
};

bool speed_table(const SpeedOptions& o);

int main(int argc, char** argv) {
    CLI::App app{"Simulation speed of the demo vectors against the project's targets"};
    SpeedOptions o;
    auto& [folders, binary, filter, glob, whole_vector, max_ratio, max_whole_s, max_rss_mb, repeat, largest, reference,
           baseline, max_slowdown_pct] = o;
    app.add_option("VECTORS,--vectors", folders, "Folders of generator output folders (several allowed)")
        ->capture_default_str();
    app.add_option("--binary", binary, "ai8xsim executable")->capture_default_str();
    app.add_option("--prefix", filter, "Benchmark vectors whose name starts with this")->capture_default_str();
    app.add_option("--glob", glob, "Benchmark vectors whose name matches this shell pattern (replaces --prefix)");
    app.add_option("--largest", largest,
                   "Time only the N selected vectors with the most CNN cycles (an untimed run of each finds them)");
    app.add_option("--repeat", repeat, "Timed runs per vector; the fastest counts")->check(CLI::PositiveNumber);
    app.add_option("--max-ratio", max_ratio, "Target: inference wall / silicon time")->capture_default_str();
    app.add_option("--max-whole", max_whole_s, "Target: whole-run seconds of --whole-vector")->capture_default_str();
    app.add_option("--whole-vector", whole_vector, "Vector with a whole-run target")->capture_default_str();
    app.add_option("--max-rss", max_rss_mb, "Target: peak RSS in MB")->capture_default_str();
    app.add_option("--reference", reference, "Vector whose ratio the vs_ref column divides by (when timed)")
        ->capture_default_str();
    app.add_option("--baseline", baseline, "Another ai8xsim build timed on the same vectors in the same run");
    app.add_option("--max-slowdown", max_slowdown_pct, "Target: percent the ratio may exceed the baseline's")
        ->capture_default_str();
    std::string anchors_file = AI8XSIM_ANCHORS_FILE;
    std::vector<std::string> anchor_dirs;
    bool anchors_only = false, no_anchors = false;
    app.add_option("--anchors", anchors_file, "Silicon measurements to compare with")->capture_default_str();
    app.add_option("--anchor-vectors", anchor_dirs,
                   "Folders to look for the anchors' vectors in (default: VECTORS and VECTORS-max78002)");
    app.add_flag("--anchors-only", anchors_only, "Run only the silicon anchors, not the speed table");
    app.add_flag("--no-anchors", no_anchors, "Run only the speed table");
    CLI11_PARSE(app, argc, argv);

    bool all_ok = true;
    if (!anchors_only) all_ok = speed_table(o);
    if (!no_anchors) {
        if (anchor_dirs.empty()) anchor_dirs = {folders.front(), folders.front() + "-max78002"};
        std::vector<ai8x::bench::Anchor> anchors;
        try {
            anchors = ai8x::bench::load_anchors(anchors_file);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "ai8xsim-bench: %s\n", e.what());
            return 2;
        }
        std::printf("\nsilicon anchors (%s): the firmware's stopwatch on the simulator against the board\n",
                    anchors_file.c_str());
        const auto rows = ai8x::bench::run_anchors(anchors, anchor_dirs, binary);
        ai8x::bench::print_anchor_table(rows);
        bool anchors_ok = true;
        for (const auto& r : rows) anchors_ok = anchors_ok && r.ok;
        std::printf("%s\n", anchors_ok ? "anchors: every run anchor within its tolerance"
                                       : "anchors: MISS (outside tolerance, failed or timed differently)");
        all_ok = all_ok && anchors_ok;
    }
    return all_ok ? 0 : 1;
}

// The speed table of the selected vectors; false if a target is missed (no vectors: exits 2).
bool speed_table(const SpeedOptions& o) {
    const auto& [folders, binary, filter, glob, whole_vector, max_ratio, max_whole_s, max_rss_mb, repeat, largest,
                 reference, baseline, max_slowdown_pct] = o;
    const std::string pattern = glob.empty() ? filter + "*" : glob;
    std::vector<fs::path> dirs;
    for (const std::string& folder : folders) {
        std::error_code ec;
        std::vector<fs::path> found;
        for (const auto& e : fs::directory_iterator(folder, ec))
            if (e.is_directory() && fnmatch(pattern.c_str(), e.path().filename().c_str(), 0) == 0)
                found.push_back(e.path());
        if (ec || found.empty()) {
            std::fprintf(stderr, "ai8xsim-bench: %s: no vectors matching %s (%s)\n", folder.c_str(), pattern.c_str(),
                         ec ? ec.message().c_str() : "none");
            std::exit(2);
        }
        std::sort(found.begin(), found.end());
        dirs.insert(dirs.end(), found.begin(), found.end());
    }

    const fs::path json = fs::temp_directory_path() / ("ai8xsim-bench-" + std::to_string(getpid()) + ".json");
    if (largest > 0 && largest < dirs.size()) {
        // The untimed run that finds each vector's size is also its warm-up.
        std::vector<std::pair<double, fs::path>> sized;
        for (const auto& d : dirs) sized.emplace_back(cycles_of(binary, d, json), d);
        std::stable_sort(sized.begin(), sized.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        dirs.clear();
        for (std::size_t i = 0; i < largest; ++i) dirs.push_back(sized[i].second);
    }
    const bool warm = largest > 0;
    std::vector<Row> rows, base_rows;
    for (const auto& d : dirs) {
        Row r = measure(binary, d, repeat, json, warm);
        r.ratio_ok = r.ratio >= 0 && r.ratio <= max_ratio;
        if (r.name == whole_vector) r.whole_ok = r.whole_s < max_whole_s;
        r.rss_ok = r.rss_mb < max_rss_mb;
        rows.push_back(r);
        // The baseline build runs right after, on the same vector, in the same
        // conditions: its ratio is the yardstick for a change's speed.
        if (!baseline.empty()) base_rows.push_back(measure(baseline, d, repeat, json));
    }
    fs::remove(json);

    // The ratio against the reference vector's, measured in the same run: what
    // a network costs per simulated microsecond compared with a plain one,
    // independent of the machine's speed.
    double reference_ratio = -1;
    for (const auto& r : rows)
        if (r.name == reference && r.ratio > 0) reference_ratio = r.ratio;
    std::printf("%-40s %-6s %10s %12s %12s %9s %5s %7s %9s %5s %8s %5s\n", "vector", "result", "cycles", "silicon_us",
                "infer_ms", "ratio", "<=", "vs_ref", "whole_s", "", "rss_MB", "");
    bool all_ok = true;
    for (const auto& r : rows) {
        const bool whole_target = r.name == whole_vector;
        char vs_ref[16] = "-";
        if (reference_ratio > 0 && r.ratio >= 0)
            std::snprintf(vs_ref, sizeof vs_ref, "%.2f", r.ratio / reference_ratio);
        std::printf("%-40s %-6s %10.0f %12.1f %12.3f %9.2f %5s %7s %9.3f %5s %8.1f %5s\n", r.name.c_str(),
                    r.result.c_str(), r.cycles, r.silicon_s * 1e6, r.infer_s * 1e3, r.ratio,
                    r.ratio_ok ? "PASS" : "MISS", vs_ref, r.whole_s,
                    whole_target ? (r.whole_ok ? "PASS" : "MISS") : "-", r.rss_mb, r.rss_ok ? "PASS" : "MISS");
        all_ok = all_ok && r.ratio_ok && r.whole_ok && r.rss_ok && r.result == "pass";
    }
    std::printf("targets: inference wall / silicon <= %g, %s whole run < %g s, peak RSS < %g MB; result must be pass\n",
                max_ratio, whole_vector.c_str(), max_whole_s, max_rss_mb);
    if (!baseline.empty()) {
        std::printf(
            "\nagainst the baseline %s (same run; slowdown = new ratio / baseline ratio - 1, target <= %g %%)\n",
            baseline.c_str(), max_slowdown_pct);
        std::printf("%-40s %9s %9s %9s %5s\n", "vector", "ratio", "baseline", "slowdown", "");
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const Row& n = rows[i];
            const Row& b = base_rows[i];
            const double slowdown = b.ratio > 0 && n.ratio >= 0 ? (n.ratio / b.ratio - 1) * 100 : 1e9;
            const bool ok = slowdown <= max_slowdown_pct && b.result == "pass";
            std::printf("%-40s %9.2f %9.2f %8.1f%% %5s\n", n.name.c_str(), n.ratio, b.ratio, slowdown,
                        ok ? "PASS" : "MISS");
            all_ok = all_ok && ok;
        }
    }
    std::printf("%s\n", all_ok ? "all targets met" : "TARGET MISSED");
    return all_ok;
}
