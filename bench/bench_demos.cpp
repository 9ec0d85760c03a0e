// ai8xsim-bench: simulation speed of the demo vectors (not a test: timings
// depend on the machine, so this is run by hand and prints a table).
//
// For every demo vector of both devices (or any other selection: --vectors,
// --prefix, --glob, --largest): one untimed warm-up run builds the firmware
// into the cache, then a timed `ai8xsim run --json` gives the whole-run wall
// time (the firmware build is then a cache hit), the child's peak RSS (wait4),
// and from the JSON the CNN cycles, the CNN clock, the inference wall time and
// the layers' multiply-accumulates (the engine's throughput in GMAC/s).
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
    double cycles = 0, clock_hz = 0, silicon_s = 0, infer_s = -1, ratio = -1, whole_s = 0, rss_mb = 0, macs = 0;
    double infer_median_s = -1, ratio_median = -1;
    bool ratio_ok = false, whole_ok = true, rss_ok = false;
    // Multiply-accumulates per second of inference wall time, in billions.
    double gmacs() const { return infer_s > 0 ? macs / infer_s / 1e9 : 0; }
};

// The multiply-accumulates of every layer of a run JSON.
double layer_macs(const nlohmann::json& j) {
    double macs = 0;
    if (j.contains("layers") && j["layers"].is_array())
        for (const auto& l : j["layers"]) macs += l.value("macs", 0.0);
    return macs;
}

// The timed runs of one vector on one build, gathered one run at a time so
// that two builds' runs can alternate.
struct Samples {
    Row row;
    Child fastest_whole;
    std::vector<double> infer_s;  // every run's inference wall time
    int runs = 0;
};

// One timed run of `args` (an `ai8xsim run ... --json json` command) into `s`.
void take_sample(const std::vector<std::string>& args, const fs::path& json, Samples& s) {
    fs::remove(json);
    Child c = run_child(args);
    if (s.runs++ == 0 || c.wall_s < s.fastest_whole.wall_s) s.fastest_whole = c;
    std::ifstream in(json);
    nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return;
    Row& r = s.row;
    r.result = j.value("result", std::string("error"));
    r.cycles = j.value("cnn_cycles", 0.0);
    r.clock_hz = j.value("cnn_clock_hz", 0.0);
    r.macs = layer_macs(j);
    if (j.contains("inference_wall_seconds") && j["inference_wall_seconds"].is_number())
        s.infer_s.push_back(j["inference_wall_seconds"].get<double>());
}

// The row of a vector's samples: the fastest whole run and inference, and the
// median inference (the fastest is the least disturbed run; the median says
// how far the others scattered).
Row summarize(Samples s) {
    Row r = s.row;
    r.whole_s = s.fastest_whole.wall_s;
    r.rss_mb = double(s.fastest_whole.maxrss_kb) / 1024.0;
    r.silicon_s = r.clock_hz > 0 ? r.cycles / r.clock_hz : 0;
    if (!s.infer_s.empty()) {
        std::sort(s.infer_s.begin(), s.infer_s.end());
        const std::size_t n = s.infer_s.size();
        r.infer_s = s.infer_s.front();
        r.infer_median_s = n % 2 ? s.infer_s[n / 2] : (s.infer_s[n / 2 - 1] + s.infer_s[n / 2]) / 2;
    }
    if (r.infer_s >= 0 && r.silicon_s > 0) {
        r.ratio = r.infer_s / r.silicon_s;
        r.ratio_median = r.infer_median_s / r.silicon_s;
    }
    return r;
}

// The `ai8xsim run` command of one vector on one build.
std::vector<std::string> run_command(const std::string& binary, const fs::path& d, const fs::path& json,
                                     const std::vector<std::string>& run_args) {
    std::vector<std::string> args{binary, "run", d.string(), "--quiet", "--json", json.string()};
    args.insert(args.end(), run_args.begin(), run_args.end());
    return args;
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
    // Both devices' demos (demo-* and demo87-*); with --largest and no
    // folders given, every shared folder.
    std::vector<std::string> folders{AI8XSIM_DEFAULT_VECTORS, AI8XSIM_DEFAULT_VECTORS "-max78002"};
    std::string binary = AI8XSIM_BINARY_PATH, filter = "demo", glob;
    std::string whole_vector = "demo-kws20_v3";
    double max_ratio = 2, max_whole_s = 2, max_rss_mb = 300;
    int repeat = 1;
    std::size_t largest = 0;
    std::string reference = "demo-mnist";
    std::string baseline;
    double max_slowdown_pct = 20;
    std::vector<std::string> run_args;  // appended to every timed `ai8xsim run`
};

bool speed_table(const SpeedOptions& o);

// The four folders of golden vectors beside the checkout (../shared).
std::vector<std::string> every_shared_folder() {
    std::vector<std::string> folders;
    for (const char* suffix : {"", "-max78000-options", "-max78002", "-max78002-options"})
        folders.push_back(AI8XSIM_DEFAULT_VECTORS + std::string(suffix));
    return folders;
}

int main(int argc, char** argv) {
    CLI::App app{"Simulation speed of the demo vectors against the project's targets"};
    SpeedOptions o;
    auto& [folders, binary, filter, glob, whole_vector, max_ratio, max_whole_s, max_rss_mb, repeat, largest, reference,
           baseline, max_slowdown_pct, run_args] = o;
    auto* folders_option =
        app.add_option("VECTORS,--vectors", folders, "Folders of generator output folders (several allowed)")
            ->capture_default_str();
    app.add_option("--binary", binary, "ai8xsim executable")->capture_default_str();
    app.add_option("--prefix", filter, "Benchmark vectors whose name starts with this")->capture_default_str();
    app.add_option("--glob", glob, "Benchmark vectors whose name matches this shell pattern (replaces --prefix)");
    app.add_option("--largest", largest,
                   "Time only the N selected vectors with the most CNN cycles (an untimed run of each finds them); "
                   "without VECTORS, among every shared folder");
    app.add_option("--repeat", repeat,
                   "Timed runs per vector (alternating with the baseline's); the fastest counts, the median is shown")
        ->check(CLI::PositiveNumber);
    app.add_option("--run-arg", run_args, "An argument for every timed `ai8xsim run` (repeat for several)")
        ->allow_extra_args(false);
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
                   "Folders to look for the anchors' vectors in (default: the shared vectors and vectors-max78002)");
    app.add_flag("--anchors-only", anchors_only, "Run only the silicon anchors, not the speed table");
    app.add_flag("--no-anchors", no_anchors, "Run only the speed table");
    CLI11_PARSE(app, argc, argv);
    if (largest > 0 && folders_option->count() == 0) folders = every_shared_folder();

    bool all_ok = true;
    if (!anchors_only) all_ok = speed_table(o);
    if (!no_anchors) {
        if (anchor_dirs.empty()) anchor_dirs = {AI8XSIM_DEFAULT_VECTORS, AI8XSIM_DEFAULT_VECTORS "-max78002"};
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

namespace {

// The vector folders of `folders` whose name matches `pattern`, sorted per
// folder; exits 2 when a folder cannot be read or none matches in any.
std::vector<fs::path> select_vectors(const std::vector<std::string>& folders, const std::string& pattern) {
    std::vector<fs::path> dirs;
    for (const std::string& folder : folders) {
        std::error_code ec;
        std::vector<fs::path> found;
        for (const auto& e : fs::directory_iterator(folder, ec))
            if (e.is_directory() && fnmatch(pattern.c_str(), e.path().filename().c_str(), 0) == 0)
                found.push_back(e.path());
        if (ec) {
            std::fprintf(stderr, "ai8xsim-bench: %s: %s\n", folder.c_str(), ec.message().c_str());
            std::exit(2);
        }
        std::sort(found.begin(), found.end());
        dirs.insert(dirs.end(), found.begin(), found.end());
    }
    if (dirs.empty()) {
        std::fprintf(stderr, "ai8xsim-bench: no vectors matching %s in any of the %zu folders\n", pattern.c_str(),
                     folders.size());
        std::exit(2);
    }
    return dirs;
}

// The `largest` of `dirs` by CNN cycles (an untimed run of each, which is also its warm-up).
std::vector<fs::path> largest_vectors(const std::string& binary, const std::vector<fs::path>& dirs, std::size_t largest,
                                      const fs::path& json) {
    std::vector<std::pair<double, fs::path>> sized;
    for (const auto& d : dirs) sized.emplace_back(cycles_of(binary, d, json), d);
    std::stable_sort(sized.begin(), sized.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<fs::path> chosen;
    for (std::size_t i = 0; i < largest; ++i) chosen.push_back(sized[i].second);
    return chosen;
}

// Prints the rows against the targets; false if one is missed.
bool print_rows(const SpeedOptions& o, const std::vector<Row>& rows) {
    // The ratio against the reference vector's, measured in the same run: what
    // a network costs per simulated microsecond compared with a plain one,
    // independent of the machine's speed.
    double reference_ratio = -1;
    for (const auto& r : rows)
        if (r.name == o.reference && r.ratio > 0) reference_ratio = r.ratio;
    std::printf("%-40s %-6s %10s %12s %12s %9s %8s %9s %5s %9s %7s %9s %5s %8s %5s\n", "vector", "result", "cycles",
                "silicon_us", "infer_ms", "median", "GMAC/s", "ratio", "<=", "median", "vs_ref", "whole_s", "",
                "rss_MB", "");
    bool all_ok = true;
    for (const auto& r : rows) {
        const bool whole_target = r.name == o.whole_vector;
        char vs_ref[16] = "-";
        if (reference_ratio > 0 && r.ratio >= 0)
            std::snprintf(vs_ref, sizeof vs_ref, "%.2f", r.ratio / reference_ratio);
        std::printf("%-40s %-6s %10.0f %12.1f %12.3f %9.3f %8.2f %9.2f %5s %9.2f %7s %9.3f %5s %8.1f %5s\n",
                    r.name.c_str(), r.result.c_str(), r.cycles, r.silicon_s * 1e6, r.infer_s * 1e3,
                    r.infer_median_s * 1e3, r.gmacs(), r.ratio, r.ratio_ok ? "PASS" : "MISS", r.ratio_median, vs_ref,
                    r.whole_s, whole_target ? (r.whole_ok ? "PASS" : "MISS") : "-", r.rss_mb,
                    r.rss_ok ? "PASS" : "MISS");
        all_ok = all_ok && r.ratio_ok && r.whole_ok && r.rss_ok && r.result == "pass";
    }
    std::printf("targets: inference wall / silicon <= %g, %s whole run < %g s, peak RSS < %g MB; result must be pass\n",
                o.max_ratio, o.whole_vector.c_str(), o.max_whole_s, o.max_rss_mb);
    return all_ok;
}

// Prints each row beside the baseline build's; false if one slowed down beyond the target.
bool print_baseline(const SpeedOptions& o, const std::vector<Row>& rows, const std::vector<Row>& base_rows) {
    std::printf("\nagainst the baseline %s (same run; slowdown = new ratio / baseline ratio - 1, target <= %g %%)\n",
                o.baseline.c_str(), o.max_slowdown_pct);
    std::printf("%-40s %9s %9s %9s %9s %8s %8s %9s %5s\n", "vector", "ratio", "baseline", "median", "baseline",
                "GMAC/s", "baseline", "slowdown", "");
    bool all_ok = true;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Row& n = rows[i];
        const Row& b = base_rows[i];
        if (b.result != "pass" || b.ratio <= 0) {  // no ratio to compare with: say so, never a made-up slowdown
            std::printf(
                "%-40s %9.2f %9s %9.2f %9s %8.2f %8s  MISS: the baseline's run gave '%s' (run it alone to see why)\n",
                n.name.c_str(), n.ratio, "-", n.ratio_median, "-", n.gmacs(), "-", b.result.c_str());
            all_ok = false;
            continue;
        }
        const double slowdown = (n.ratio / b.ratio - 1) * 100;
        const bool ok = n.ratio >= 0 && slowdown <= o.max_slowdown_pct;
        std::printf("%-40s %9.2f %9.2f %9.2f %9.2f %8.2f %8.2f %8.1f%% %5s\n", n.name.c_str(), n.ratio, b.ratio,
                    n.ratio_median, b.ratio_median, n.gmacs(), b.gmacs(), slowdown, ok ? "PASS" : "MISS");
        all_ok = all_ok && ok;
    }
    return all_ok;
}

}  // namespace

namespace {

// One vector: warm-up runs cache the firmware (not after --largest's untimed
// run), then `repeat` timed runs of the build, each followed by one of the
// baseline's when there is one: both builds meet the same disturbances, so
// their ratio is the yardstick for a change's speed.
void measure_vector(const SpeedOptions& o, const fs::path& d, const fs::path& json, Row& row, Row& base_row) {
    const auto args = run_command(o.binary, d, json, o.run_args);
    const auto base_args = run_command(o.baseline, d, json, o.run_args);
    const bool baseline = !o.baseline.empty();
    if (o.largest == 0) run_child(args);
    if (baseline) run_child(base_args);
    Samples samples, base_samples;
    for (int i = 0; i < o.repeat; ++i) {
        take_sample(args, json, samples);
        if (baseline) take_sample(base_args, json, base_samples);
    }
    samples.row.name = base_samples.row.name = d.filename().string();
    row = summarize(samples);
    base_row = summarize(base_samples);
}

}  // namespace

// The speed table of the selected vectors; false if a target is missed (no vectors: exits 2).
bool speed_table(const SpeedOptions& o) {
    std::vector<fs::path> dirs = select_vectors(o.folders, o.glob.empty() ? o.filter + "*" : o.glob);
    const fs::path json = fs::temp_directory_path() / ("ai8xsim-bench-" + std::to_string(getpid()) + ".json");
    if (o.largest > 0 && o.largest < dirs.size()) dirs = largest_vectors(o.binary, dirs, o.largest, json);
    std::vector<Row> rows, base_rows;
    for (const auto& d : dirs) {
        Row r, b;
        measure_vector(o, d, json, r, b);
        r.ratio_ok = r.ratio >= 0 && r.ratio <= o.max_ratio;
        if (r.name == o.whole_vector) r.whole_ok = r.whole_s < o.max_whole_s;
        r.rss_ok = r.rss_mb < o.max_rss_mb;
        rows.push_back(r);
        if (!o.baseline.empty()) base_rows.push_back(b);
    }
    fs::remove(json);
    bool all_ok = print_rows(o, rows);
    if (!o.baseline.empty()) all_ok = print_baseline(o, rows, base_rows) && all_ok;
    std::printf("%s\n", all_ok ? "all targets met" : "TARGET MISSED");
    return all_ok;
}
