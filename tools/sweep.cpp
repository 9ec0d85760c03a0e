// ai8xsim-sweep: runs `ai8xsim run DIR --set ADDR=VALUE ...` for every point of
// a grid of register overrides, in parallel, and writes one CSV row per point.
// Used to explore parameters (e.g. streaming start/delta values) without
// regenerating the firmware. See README.md "Exploring streaming parameters".
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "firmware/host/firmware_cache_root.h"
#include "firmware/host/temporary_files.h"
#include "tools/process_pool.h"
#include "tools/result_file.h"
#include "tools/sweep_grid.h"

namespace fs = std::filesystem;

using namespace ai8x::sweep;
using ai8x::tools::AppendFile;
using ai8x::tools::Job;
using ai8x::tools::JobOutcome;
using ai8x::tools::PoolLimits;

namespace {

const char* const kColumns = "verdict,exit_code,cnn_cycles,hazards,stall_cycles,wall_s";

struct Point {
    size_t number = 0;  // 1-based place in grid order (--point, job lists)
    std::vector<size_t> index;
    std::vector<std::pair<uint32_t, uint32_t>> sets;
    fs::path work;  // this run's own folder: JSON, log and TMPDIR
    JobOutcome outcome;
};

// What every run of one sweep shares.
struct RunSetup {
    std::string ai8xsim;
    fs::path dir;
    double timeout = 0;
    std::string build_dir;  // firmware cache of the runs
};

fs::path point_json(const Point& p) { return p.work / "run.json"; }
fs::path point_log(const Point& p) { return p.work / "run.log"; }

// One run: its temporary files in its own folder, and whatever a killed run
// half-wrote in the firmware cache removed (tools/process_pool.h).
Job point_job(const Point& p, const RunSetup& setup) {
    Job job;
    job.argv = {setup.ai8xsim, "run", setup.dir.string()};
    for (const auto& [addr, value] : p.sets) {
        job.argv.push_back("--set");
        job.argv.push_back(hex(addr) + "=" + hex(value));
    }
    job.argv.insert(job.argv.end(), {"--json", point_json(p).string(), "--build-dir", setup.build_dir});
    // The simulator's console goes to the point's log, so the sweep's
    // stderr shows only progress.
    job.log_path = point_log(p).string();
    job.tmp_dir = (p.work / "tmp").string();
    job.leftover_dirs = {setup.build_dir};
    return job;
}

// A sweep killed outright (SIGKILL) cannot remove its scratch folder: the
// next sweep removes those of sweeps that are no longer running.
void remove_stale_scratch() {
    std::error_code ec;
    const std::string prefix = "ai8xsim-sweep-";
    for (fs::directory_iterator e(fs::temp_directory_path(), ec), end; !ec && e != end; e.increment(ec)) {
        const std::string name = e->path().filename().string();
        if (name.rfind(prefix, 0) != 0 || name.find_first_not_of("0123456789", prefix.size()) != std::string::npos ||
            name.size() == prefix.size() || name.size() > prefix.size() + 9)  // no process number has 10 digits
            continue;
        // Any process with that number (even another user's) keeps the
        // folder: a reused number only delays the clean-up.
        std::error_code ec2;
        const bool alive = ai8x::process_runs(std::stol(name.substr(prefix.size())));
        if (!alive && e->is_directory(ec2)) fs::remove_all(e->path(), ec2);
    }
}

std::string csv_row(const Point& p, const std::vector<Axis>& axes) {
    std::ostringstream row;
    for (size_t a = 0; a < axes.size(); ++a) row << axis_cell(axes[a], p.index[a]) << ",";
    // Verdict from the run JSON; without one (crash, timeout, bad vector) it is ERROR.
    std::string verdict = "ERROR", cycles, hazards, stalls;
    nlohmann::json j;
    std::ifstream in(point_json(p));
    const JobOutcome& o = p.outcome;
    if (in && !o.timed_out) {
        try {
            in >> j;
            const std::string result = j.value("result", std::string());
            verdict = result == "pass" ? "PASS" : result == "fail" ? "FAIL" : "ERROR";
            if (j.contains("cnn_cycles") && j["cnn_cycles"].is_number())
                cycles = std::to_string(j["cnn_cycles"].get<uint64_t>());
            if (j.contains("hazards") && j["hazards"].is_array()) hazards = std::to_string(j["hazards"].size());
            if (j.contains("stall_cycles") && j["stall_cycles"].is_number())
                stalls = std::to_string(j["stall_cycles"].get<uint64_t>());
        } catch (const std::exception&) {
            verdict = "ERROR";
        }
    }
    // A run killed by a signal of its own (a crash) shows -1; one killed for
    // its time or never started, no exit code.
    const std::string exit_code =
        o.timed_out || o.spawn_failed ? std::string() : std::to_string(o.signalled ? -1 : o.exit_code);
    row << verdict << "," << exit_code << "," << cycles << "," << hazards << "," << stalls << ",";
    char wall[32];
    std::snprintf(wall, sizeof wall, "%.3f", o.wall_seconds);
    row << wall;
    return row.str();
}

// Runs `todo` (indices into `points`) with at most `jobs` at once; `done(p)`
// gets each point as it finishes, its row still readable from its folder,
// which is removed right after.
void run_points(std::vector<Point>& points, const std::vector<size_t>& todo, unsigned jobs, const RunSetup& setup,
                const std::function<void(const Point&)>& done) {
    PoolLimits limits;
    limits.parallel = jobs;
    limits.seconds_per_job = setup.timeout;
    const auto job_at = [&](size_t k) { return point_job(points[todo[k]], setup); };
    run_jobs(todo.size(), job_at, limits, [&](size_t k, const JobOutcome& outcome) {
        Point& p = points[todo[k]];
        p.outcome = outcome;
        if (outcome.spawn_failed) std::cerr << "ai8xsim-sweep: " << outcome.error << "\n";
        done(p);
        std::error_code ec;
        fs::remove_all(p.work, ec);
    });
}

std::string default_ai8xsim() {
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string("ai8xsim") : (self.parent_path() / "ai8xsim").string();
}

std::string absolute(const std::string& path) { return fs::absolute(path).lexically_normal().string(); }

// The grid's axis cells of `row` ("v1,v2,...," up to the verdict column).
std::string axis_key(const std::string& row, size_t axes) {
    size_t pos = 0;
    for (size_t a = 0; a < axes; ++a) {
        pos = row.find(',', pos);
        if (pos == std::string::npos) return {};
        ++pos;
    }
    return row.substr(0, pos);
}

// Each row of `lines` (a sweep CSV without its header) in its point's place
// (grid order); throws naming `file` if a row is no point of this grid.
std::vector<std::optional<std::string>> rows_by_point(std::vector<std::string> lines, const std::vector<Point>& points,
                                                      const std::vector<Axis>& axes, const std::string& file) {
    std::map<std::string, std::vector<size_t>> by_key;  // axis cells -> points, grid order
    for (const Point& p : points) {
        std::string key;
        for (size_t a = 0; a < axes.size(); ++a) key += axis_cell(axes[a], p.index[a]) + ",";
        by_key[key].push_back(p.number - 1);
    }
    std::vector<std::optional<std::string>> rows(points.size());
    for (std::string& line : lines) {
        auto it = by_key.find(axis_key(line, axes.size()));
        if (it == by_key.end() || it->second.empty())
            throw UsageError(file + ": row '" + line + "' is not a point of this grid (or is there twice)");
        rows[it->second.front()] = std::move(line);
        it->second.erase(it->second.begin());
    }
    return rows;
}

// --merge DIR: the CSV of the job list in DIR (--write-jobs), as a local run writes it.
int merge(const fs::path& jobs_dir, const std::string& out) {
    const fs::path manifest_path = jobs_dir / "sweep.json";
    std::ifstream in(manifest_path);
    if (!in) throw UsageError("--merge: " + manifest_path.string() + " not found (written by --write-jobs)");
    const nlohmann::json manifest = nlohmann::json::parse(in, nullptr, false);
    if (manifest.is_discarded() || !manifest.contains("header") || !manifest["header"].is_string() ||
        !manifest.contains("points") || !manifest["points"].is_number_unsigned())
        throw UsageError("--merge: " + manifest_path.string() + " is not a sweep manifest (header, points)");
    const std::string header = manifest["header"];
    const size_t count = manifest["points"];
    std::string csv = header + "\n";
    std::vector<size_t> missing;
    for (size_t k = 1; k <= count; ++k) {
        const fs::path f = jobs_dir / "points" / ("point-" + std::to_string(k) + ".csv");
        const auto lines = ai8x::tools::read_complete_lines(f.string());
        if (lines.size() != 2) {
            missing.push_back(k);
            continue;
        }
        if (lines[0] != header)
            throw UsageError("--merge: " + f.string() + " has another header than " + manifest_path.string() + ": '" +
                             lines[0] + "'");
        csv += lines[1] + "\n";
    }
    if (!missing.empty()) {
        std::string list;
        for (size_t i = 0; i < missing.size() && i < 20; ++i) list += (i ? "," : "") + std::to_string(missing[i]);
        if (missing.size() > 20) list += ",...";
        std::cerr << "ai8xsim-sweep: --merge: " << missing.size() << " of " << count
                  << " points have no result yet (lines " << list << " of " << (jobs_dir / "jobs.txt").string() << "); "
                  << out << " not written\n";
        return 1;
    }
    ai8x::tools::write_atomically(out, csv);
    std::cerr << "ai8xsim-sweep: merged " << count << " points into " << out << "\n";
    return 0;
}

// The command line, as given.
struct SweepOptions {
    std::string dir_arg, out_arg, ai8xsim = default_ai8xsim(), build_dir, jobs_dir, merge_dir;
    std::vector<std::string> grids, grid_fields, field_defs;
    unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
    double timeout = 0;
    size_t only_point = 0;
    bool resume = false;
};

// Parses the command line into `o`; an exit code when there is nothing more
// to do (--help, or a parse error already reported).
std::optional<int> parse_command_line(int argc, char** argv, SweepOptions& o) {
    CLI::App app{"Run ai8xsim over a grid of register overrides and write one CSV row per point"};
    app.add_option("DIR", o.dir_arg, "Vector directory (as for ai8xsim run)");
    app.add_option("-o,--output", o.out_arg, "CSV file to write (appended to point by point)");
    app.add_option("--grid", o.grids, "Axis ADDR[+ADDR..]=V1,V2,... or ADDR=START:END:STEP (whole register value)");
    app.add_option("--grid-field", o.grid_fields,
                   "Axis ADDR[+ADDR..]:HI:LO=VALUES or NAME=VALUES: bits HI:LO replaced in the value cnn.c writes");
    app.add_option("--field", o.field_defs, "Name a field for --grid-field: NAME=ADDR[+ADDR..]:HI:LO");
    app.add_option("-j,--jobs", o.jobs, "Runs in parallel (default: number of cores)")->check(CLI::PositiveNumber);
    app.add_option("--ai8xsim", o.ai8xsim, "ai8xsim binary (default: next to this program)");
    app.add_option("--timeout", o.timeout, "Seconds per run before it is killed (0: none)")
        ->check(CLI::NonNegativeNumber);
    app.add_option("--build-dir", o.build_dir, "Firmware build cache of the runs (default: ai8xsim's)");
    app.add_flag("--resume", o.resume, "Keep the rows already in the output file and run only the missing points");
    app.add_option("--point", o.only_point, "Run only point K of the grid (1-based, grid order)")
        ->check(CLI::PositiveNumber);
    app.add_option("--write-jobs", o.jobs_dir,
                   "Run nothing; write DIR/jobs.txt (GNU parallel) and DIR/slurm.sh (Slurm job array), one point "
                   "per job, each writing DIR/points/point-K.csv");
    app.add_option("--merge", o.merge_dir, "Build the CSV (-o) from the results of a --write-jobs DIR");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int rc = app.exit(e);
        return rc == 0 ? 0 : 2;
    }
    return std::nullopt;
}

// A sweep (not a merge) needs a vector folder, an output, a runnable
// ai8xsim and an axis.
void check_sweep_options(const SweepOptions& o) {
    if (o.dir_arg.empty()) throw UsageError("no vector directory given");
    if (o.out_arg.empty() && o.jobs_dir.empty()) throw UsageError("no output: give -o FILE (or --write-jobs DIR)");
    if (!fs::is_directory(o.dir_arg)) throw UsageError("vector directory '" + o.dir_arg + "' does not exist");
    if (access(o.ai8xsim.c_str(), X_OK) != 0)
        throw UsageError("ai8xsim binary '" + o.ai8xsim + "' not found or not executable (use --ai8xsim PATH)");
    if (o.grids.empty() && o.grid_fields.empty()) throw UsageError("no axis: give at least one --grid or --grid-field");
}

// The grid: its axes (CSV columns, grid nesting) in the order the user gave
// them, whichever option, the options that gave them (for job lists), the
// register values cnn.c writes (for --grid-field) and the CSV header.
struct Grid {
    std::vector<Axis> axes;
    std::vector<std::string> axis_args;
    std::map<uint32_t, uint32_t> generated;
    std::string header;
};

Grid parse_grid_axes(int argc, char** argv, const SweepOptions& o) {
    const fs::path dir(o.dir_arg);
    std::map<std::string, Field> named;
    for (const std::string& def : o.field_defs) named.insert(parse_field_def(def));
    Grid g;
    if (!o.grid_fields.empty()) g.generated = generated_writes(dir / "cnn.c");
    size_t next_grid = 0, next_field = 0;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if ((a == "--grid" || a.rfind("--grid=", 0) == 0) && next_grid < o.grids.size()) {
            g.axis_args.push_back("--grid=" + o.grids[next_grid]);
            g.axes.push_back(parse_grid(o.grids[next_grid++]));
        } else if ((a == "--grid-field" || a.rfind("--grid-field=", 0) == 0) && next_field < o.grid_fields.size()) {
            const std::string& spec = o.grid_fields[next_field++];
            g.axis_args.push_back("--grid-field=" + spec);
            g.axes.push_back(parse_grid_field(spec, named));
            for (uint32_t addr : g.axes.back().addresses)
                if (!g.generated.count(addr))
                    throw UsageError("--grid-field '" + spec + "': " + (dir / "cnn.c").string() + " never writes " +
                                     hex(addr) + ", so there are no generated bits to keep");
        }
    }
    for (const Axis& a : g.axes) g.header += a.label + ",";
    g.header += kColumns;
    check_grid_size(g.axes);
    return g;
}

// Every point of the grid, in grid order (the last axis varies fastest).
std::vector<Point> grid_points_in_order(const Grid& g, size_t only_point) {
    std::vector<Point> points;
    for (const auto& index : grid_points(g.axes)) {
        Point p;
        p.number = points.size() + 1;
        p.index = index;
        points.push_back(std::move(p));
    }
    if (only_point > points.size())
        throw UsageError("--point " + std::to_string(only_point) + ": the grid has " + std::to_string(points.size()) +
                         " points");
    return points;
}

// --write-jobs DIR: one job per point, each a complete command writing its own file.
int write_jobs(const SweepOptions& o, const Grid& g, const std::vector<Point>& points) {
    const std::string base = absolute(o.jobs_dir);
    fs::create_directories(fs::path(base) / "points");
    std::vector<std::string> common = {fs::read_symlink("/proc/self/exe").string(), absolute(o.dir_arg)};
    for (const auto& f : o.field_defs) common.push_back("--field=" + f);
    common.insert(common.end(), g.axis_args.begin(), g.axis_args.end());
    common.push_back("--ai8xsim=" + absolute(o.ai8xsim));
    if (o.timeout > 0) common.push_back("--timeout=" + std::to_string(o.timeout));
    if (!o.build_dir.empty()) common.push_back("--build-dir=" + absolute(o.build_dir));
    std::vector<std::string> commands;
    for (const Point& p : points) {
        auto argv_k = common;
        argv_k.push_back("--point=" + std::to_string(p.number));
        argv_k.push_back("--output=" + base + "/points/point-" + std::to_string(p.number) + ".csv");
        commands.push_back(ai8x::tools::shell_command(argv_k));
    }
    ai8x::tools::write_job_files(base, commands, "ai8xsim-sweep");
    const nlohmann::json manifest = {{"header", g.header}, {"points", points.size()}, {"vector", absolute(o.dir_arg)}};
    ai8x::tools::write_atomically(base + "/sweep.json", manifest.dump(2) + "\n");
    std::cerr << "ai8xsim-sweep: " << points.size() << " jobs in " << base << "/jobs.txt and " << base
              << "/slurm.sh; merge with --merge " << base << " -o FILE\n";
    return 0;
}

// The points the output file does not hold yet (all of them without --resume).
std::vector<size_t> points_to_run(AppendFile& file, const std::vector<Point>& points, const Grid& g,
                                  const std::string& out) {
    const auto kept = rows_by_point(file.take_lines(), points, g.axes, out);
    std::vector<size_t> todo;
    for (size_t i = 0; i < points.size(); ++i)
        if (!kept[i]) todo.push_back(i);
    return todo;
}

// The finished file rewritten with its rows in grid order, whatever order
// they finished in.
void sort_rows(const std::string& out, const std::vector<Point>& points, const Grid& g) {
    std::string csv = g.header + "\n";
    auto lines = ai8x::tools::read_complete_lines(out);
    if (lines.empty() || lines.front() != g.header) throw UsageError(out + ": changed while the sweep ran");
    lines.erase(lines.begin());
    for (const auto& r : rows_by_point(std::move(lines), points, g.axes, out)) {
        if (!r) throw UsageError(out + ": a finished point's row is missing (file changed while the sweep ran)");
        csv += *r + "\n";
    }
    ai8x::tools::write_atomically(out, csv);
}

// Runs the points of the grid that the output file lacks, appending each
// row as its run ends, then puts the rows in grid order.
int run_grid(const SweepOptions& o, const Grid& g, std::vector<Point>& points, const RunSetup& setup,
             const fs::path& scratch) {
    // Rows already in the file (--resume) are points done. Rows are not kept
    // in memory while the sweep runs: the file has them.
    AppendFile file(o.out_arg, g.header, o.resume);
    const std::vector<size_t> todo = points_to_run(file, points, g, o.out_arg);
    std::cerr << "ai8xsim-sweep: " << points.size() << " points";
    if (todo.size() < points.size()) std::cerr << ", " << points.size() - todo.size() << " already in " << o.out_arg;
    std::cerr << ", " << o.jobs << " in parallel, runs in " << scratch << "\n";

    size_t finished = points.size() - todo.size();
    auto record = [&](const Point& p) {
        file.append(csv_row(p, g.axes));
        ++finished;
        std::cerr << "[" << finished << "/" << points.size() << "] point " << p.number
                  << (p.outcome.timed_out ? " timed out" : " exit " + std::to_string(p.outcome.exit_code)) << " ("
                  << p.outcome.wall_seconds << " s)\n";
    };
    for (size_t i : todo) points[i].sets = point_overrides(g.axes, points[i].index, g.generated);
    // The first run builds (and caches) the firmware; running it alone keeps
    // the parallel runs from building the same firmware at once.
    if (!todo.empty()) {
        run_points(points, {todo.front()}, 1, setup, record);
        run_points(points, std::vector<size_t>(todo.begin() + 1, todo.end()), o.jobs, setup, record);
    }
    std::error_code ec;
    fs::remove_all(scratch, ec);
    sort_rows(o.out_arg, points, g);
    std::cerr << "ai8xsim-sweep: wrote " << o.out_arg << "\n";
    return 0;
}

// --point K: one point, its file written whole (job lists: one job, one file).
int run_one_point(const SweepOptions& o, const Grid& g, std::vector<Point>& points, const RunSetup& setup,
                  const fs::path& scratch) {
    Point& p = points[o.only_point - 1];
    p.sets = point_overrides(g.axes, p.index, g.generated);
    std::string row;
    run_points(points, {o.only_point - 1}, 1, setup, [&](const Point& q) { row = csv_row(q, g.axes); });
    std::error_code ec;
    fs::remove_all(scratch, ec);
    ai8x::tools::write_atomically(o.out_arg, g.header + "\n" + row + "\n");
    return 0;
}

int sweep(int argc, char** argv) {
    SweepOptions o;
    if (const auto rc = parse_command_line(argc, argv, o)) return *rc;
    if (!o.merge_dir.empty()) {
        if (o.out_arg.empty()) throw UsageError("--merge needs -o FILE");
        return merge(o.merge_dir, o.out_arg);
    }
    check_sweep_options(o);
    const Grid g = parse_grid_axes(argc, argv, o);
    std::vector<Point> points = grid_points_in_order(g, o.only_point);
    if (!o.jobs_dir.empty()) return write_jobs(o, g, points);

    // The cache named explicitly: a run's TMPDIR is its own folder, so
    // ai8xsim's last-resort default ($TMPDIR/ai8xsim-cache) would differ per run.
    const RunSetup setup{o.ai8xsim, o.dir_arg, o.timeout,
                         o.build_dir.empty() ? ai8x::default_firmware_cache_root() : o.build_dir};
    remove_stale_scratch();
    const fs::path scratch = fs::temp_directory_path() / ("ai8xsim-sweep-" + std::to_string(getpid()));
    for (Point& p : points) p.work = scratch / ("point-" + std::to_string(p.number));
    if (o.only_point > 0) return run_one_point(o, g, points, setup, scratch);
    return run_grid(o, g, points, setup, scratch);
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return sweep(argc, argv);
    } catch (const UsageError& e) {
        std::cerr << "ai8xsim-sweep: " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "ai8xsim-sweep: " << e.what() << "\n";
        return 2;
    }
}
