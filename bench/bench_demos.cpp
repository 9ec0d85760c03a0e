// ai8xsim-bench: simulation speed of the demo vectors (not a test: timings
// depend on the machine, so this is run by hand and prints a table).
//
// For every demo-* vector: one untimed warm-up run builds the firmware into the
// cache, then a timed `ai8xsim run --json` gives the whole-run wall time (the
// firmware build is then a cache hit), the child's peak RSS (wait4), and from
// the JSON the CNN cycles, the CNN clock and the inference wall time.
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
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/silicon_anchors.h"

namespace fs = std::filesystem;

namespace {

struct Child {
    int status = -1;
    double wall_s = 0;
    long maxrss_kb = 0;
};

// Runs argv with stdout/stderr sent to /dev/null; wall time and peak RSS of that one child.
Child run_child(const std::vector<std::string>& args) {
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    Child c;
    const auto t0 = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid < 0) return c;
    if (pid == 0) {
        const int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(null, 2);
        execv(argv[0], argv.data());
        _exit(127);
    }
    struct rusage ru {};
    int status = 0;
    if (wait4(pid, &status, 0, &ru) < 0) return c;
    c.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    c.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    c.maxrss_kb = ru.ru_maxrss;  // kilobytes on Linux
    return c;
}

struct Row {
    std::string name, result = "error";
    double cycles = 0, clock_hz = 0, silicon_s = 0, infer_s = -1, ratio = -1, whole_s = 0, rss_mb = 0;
    bool ratio_ok = false, whole_ok = true, rss_ok = false;
};

// One vector on one build: a warm-up run caches the firmware, then `repeat`
// timed runs; the fastest whole run and the fastest inference count.
Row measure(const std::string& binary, const fs::path& d, int repeat, const fs::path& json) {
    Row r;
    r.name = d.filename().string();
    const std::vector<std::string> args{binary, "run", d.string(), "--quiet", "--json", json.string()};
    run_child(args);  // warm-up: builds and caches the firmware
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

}  // namespace

bool speed_table(const std::string& vectors, const std::string& binary, const std::string& filter,
                 const std::string& whole_vector, double max_ratio, double max_whole_s, double max_rss_mb, int repeat,
                 const std::string& baseline, double max_slowdown_pct);

int main(int argc, char** argv) {
    CLI::App app{"Simulation speed of the demo vectors against the project's targets"};
    std::string vectors = AI8XSIM_DEFAULT_VECTORS, binary = AI8XSIM_BINARY_PATH, filter = "demo-";
    std::string whole_vector = "demo-kws20_v3";
    double max_ratio = 10, max_whole_s = 2, max_rss_mb = 300;
    int repeat = 1;
    app.add_option("VECTORS", vectors, "Folder of golden vectors")->capture_default_str();
    app.add_option("--binary", binary, "ai8xsim executable")->capture_default_str();
    app.add_option("--prefix", filter, "Benchmark vectors whose name starts with this")->capture_default_str();
    app.add_option("--repeat", repeat, "Timed runs per vector; the fastest counts")->check(CLI::PositiveNumber);
    app.add_option("--max-ratio", max_ratio, "Target: inference wall / silicon time")->capture_default_str();
    app.add_option("--max-whole", max_whole_s, "Target: whole-run seconds of --whole-vector")->capture_default_str();
    app.add_option("--whole-vector", whole_vector, "Vector with a whole-run target")->capture_default_str();
    app.add_option("--max-rss", max_rss_mb, "Target: peak RSS in MB")->capture_default_str();
    std::string baseline;
    double max_slowdown_pct = 20;
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
    if (!anchors_only)
        all_ok = speed_table(vectors, binary, filter, whole_vector, max_ratio, max_whole_s, max_rss_mb, repeat,
                             baseline, max_slowdown_pct);
    if (!no_anchors) {
        if (anchor_dirs.empty()) anchor_dirs = {vectors, vectors + "-max78002"};
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

// The speed table of the demo vectors; false if a target is missed (2 = no vectors: exits).
bool speed_table(const std::string& vectors, const std::string& binary, const std::string& filter,
                 const std::string& whole_vector, double max_ratio, double max_whole_s, double max_rss_mb, int repeat,
                 const std::string& baseline, double max_slowdown_pct) {
    std::vector<fs::path> dirs;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(vectors, ec))
        if (e.is_directory() && e.path().filename().string().rfind(filter, 0) == 0) dirs.push_back(e.path());
    if (ec || dirs.empty()) {
        std::fprintf(stderr, "ai8xsim-bench: %s: no %s* vectors (%s)\n", vectors.c_str(), filter.c_str(),
                     ec ? ec.message().c_str() : "empty");
        std::exit(2);
    }
    std::sort(dirs.begin(), dirs.end());

    const fs::path json = fs::temp_directory_path() / ("ai8xsim-bench-" + std::to_string(getpid()) + ".json");
    std::vector<Row> rows, base_rows;
    for (const auto& d : dirs) {
        Row r = measure(binary, d, repeat, json);
        r.ratio_ok = r.ratio >= 0 && r.ratio <= max_ratio;
        if (r.name == whole_vector) r.whole_ok = r.whole_s < max_whole_s;
        r.rss_ok = r.rss_mb < max_rss_mb;
        rows.push_back(r);
        // The baseline build runs right after, on the same vector, in the same
        // conditions: its ratio is the yardstick for a change's speed.
        if (!baseline.empty()) base_rows.push_back(measure(baseline, d, repeat, json));
    }
    fs::remove(json);

    std::printf("%-24s %-6s %10s %12s %12s %9s %5s %9s %5s %8s %5s\n", "vector", "result", "cycles", "silicon_us",
                "infer_ms", "ratio", "<=", "whole_s", "", "rss_MB", "");
    bool all_ok = true;
    for (const auto& r : rows) {
        const bool whole_target = r.name == whole_vector;
        std::printf("%-24s %-6s %10.0f %12.1f %12.3f %9.2f %5s %9.3f %5s %8.1f %5s\n", r.name.c_str(), r.result.c_str(),
                    r.cycles, r.silicon_s * 1e6, r.infer_s * 1e3, r.ratio, r.ratio_ok ? "PASS" : "MISS", r.whole_s,
                    whole_target ? (r.whole_ok ? "PASS" : "MISS") : "-", r.rss_mb, r.rss_ok ? "PASS" : "MISS");
        all_ok = all_ok && r.ratio_ok && r.whole_ok && r.rss_ok && r.result == "pass";
    }
    std::printf("targets: inference wall / silicon <= %g, %s whole run < %g s, peak RSS < %g MB; result must be pass\n",
                max_ratio, whole_vector.c_str(), max_whole_s, max_rss_mb);
    if (!baseline.empty()) {
        std::printf(
            "\nagainst the baseline %s (same run; slowdown = new ratio / baseline ratio - 1, target <= %g %%)\n",
            baseline.c_str(), max_slowdown_pct);
        std::printf("%-24s %9s %9s %9s %5s\n", "vector", "ratio", "baseline", "slowdown", "");
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const Row& n = rows[i];
            const Row& b = base_rows[i];
            const double slowdown = b.ratio > 0 && n.ratio >= 0 ? (n.ratio / b.ratio - 1) * 100 : 1e9;
            const bool ok = slowdown <= max_slowdown_pct && b.result == "pass";
            std::printf("%-24s %9.2f %9.2f %8.1f%% %5s\n", n.name.c_str(), n.ratio, b.ratio, slowdown,
                        ok ? "PASS" : "MISS");
            all_ok = all_ok && ok;
        }
    }
    std::printf("%s\n", all_ok ? "all targets met" : "TARGET MISSED");
    return all_ok;
}
