// Silicon anchors of ai8xsim-bench: public measurements of the vendor's
// example firmware on boards (bench/silicon_anchors.yaml, docs/silicon-anchors.md),
// each run on the simulator and compared with the time its stopwatch prints.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace ai8x::bench {

struct Anchor {
    std::string name;
    std::string vector;  // empty: no vector here runs the measured firmware
    std::string device;
    std::string timed;  // "inference" or "load+inference"
    double silicon_us = 0;
    std::optional<double> tolerance_pct;
    std::string board, clocks, source;
};

// Reads the anchor list; throws std::runtime_error naming the file and the entry.
std::vector<Anchor> load_anchors(const std::string& path);

// The stopwatch line of generated firmware in a console: its microseconds and
// whether it is the "data loading and inference" kind. Empty when absent.
struct Stopwatch {
    double us = 0;
    bool includes_loading = false;
};
std::optional<Stopwatch> find_stopwatch(const std::string& console);

struct AnchorResult {
    const Anchor* anchor = nullptr;
    std::string vector_path;  // empty: not found
    std::string result;       // the run's verdict ("pass", ...), or why it did not run
    std::optional<double> ours_us;
    std::optional<double> error_pct;  // (ours - silicon) / silicon
    bool ok = true;  // ran, timed what the anchor timed, within its tolerance; or has no tolerance and no vector here
};

// Runs every anchor whose vector is in one of `vector_dirs` with `binary`
// (`ai8xsim run DIR --quiet --json`), prints the table, and returns the rows.
std::vector<AnchorResult> run_anchors(const std::vector<Anchor>& anchors, const std::vector<std::string>& vector_dirs,
                                      const std::string& binary);
void print_anchor_table(const std::vector<AnchorResult>& rows);

}  // namespace ai8x::bench
