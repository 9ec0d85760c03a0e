// ai8xsim-conformance: runs `ai8xsim run` on every golden vector and tabulates
// the verdicts, then the cycle statistics (cycle_stats.h). The last line of
// its output is always "N passed, M failed", followed by the expected
// failures among the M, e.g. "164 passed, 1 failed (1 expected: NAME)", and
// every disagreement with the expected-failures list (expected_failures.h).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <cctype>
#include <fstream>
#include <map>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "testbench/conformance/cycle_stats.h"
#include "testbench/conformance/expected_failures.h"
#include "testbench/conformance/result_log.h"
#include "testbench/conformance/vector_catalog.h"
#include "firmware/host/firmware_cache_root.h"
#include "tools/process_pool.h"
#include "tools/result_file.h"
#include "build_paths.h"

namespace fs = std::filesystem;
using namespace ai8x::conformance;
using ai8x::tools::Job;

namespace {

struct Row {
    const VectorInfo* vector = nullptr;
    JobOutcome outcome;
    std::string verdict;                      // PASS, FAIL, TIMEOUT, CRASH, ERROR
    std::optional<uint64_t> our_cycles;       // "cnn_cycles" from ai8xsim's --json output
    VectorCycles timing;                      // per-layer cycles for the statistics
    const ExpectedFailure* listed = nullptr;  // its entry in the expected-failures list
};

std::string verdict_of(const JobOutcome& o) {
    if (o.not_started) return "NOT-RUN";
    if (o.spawn_failed) return "ERROR";
    if (o.timed_out) return "TIMEOUT";
    if (o.signalled) return "CRASH";
    if (o.exit_code == 0) return "PASS";
    if (o.exit_code == 1) return "FAIL";
    return "ERROR";  // 2: bad input, 3: simulator error, 127: could not execute
}

// Reads the run's JSON result into `r`. Only a passing run's cycles feed the
// statistics: a failed known-answer test or an error leaves the vector as
// "missing data" there, with its verdict (and why the JSON is unusable).
void read_result(const fs::path& json_path, bool expected_failure, Row& r) {
    VectorCycles& t = r.timing;
    t.name = r.vector->name;
    t.kind = r.vector->kind;
    t.verdict = r.verdict;
    t.expected_failure = expected_failure;
    std::ifstream in(json_path);
    if (!in) {
        if (r.verdict == "PASS") t.verdict += ", no JSON result";
        return;
    }
    const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
        t.verdict += ", malformed JSON result";
        return;
    }
    const auto it = j.find("cnn_cycles");
    if (it != j.end() && it->is_number_unsigned()) r.our_cycles = it->get<uint64_t>();
    if (const auto problem = read_run_cycles(j, t)) t.verdict += ", JSON result: " + *problem;
    if (r.verdict != "PASS") t.has_data = false;
}

// A program built beside this one (ai8xsim, ai8xsim-layer-diff).
std::string sibling_program(const std::string& name) {
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    return ec ? name : (self.parent_path() / name).string();
}

std::string file_text(const fs::path& path) {
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// Where a listed vector's run writes its layer dumps, for the comparison that
// finds its first failing layer.
fs::path layer_dumps(const std::string& work_dir, const std::string& name) {
    return fs::path(work_dir) / (name + "-layers");
}

// How the run of `r` ended; a listed FAIL's layer dumps are compared with its
// generator log to find the first failing layer.
ObservedFailure observe(const Row& r, const std::string& work_dir) {
    const fs::path base = fs::path(work_dir) / r.vector->name;
    ObservedFailure o;
    o.verdict = r.verdict;
    o.reason =
        failure_reason(r.verdict, r.outcome, file_text(base.string() + ".json"), file_text(base.string() + ".log"));
    if (r.listed && r.verdict == "FAIL")
        compare_layers(sibling_program("ai8xsim-layer-diff"), layer_dumps(work_dir, r.vector->name).string(),
                       r.vector->dir, o);
    return o;
}

// RTL-simulation folders by their kinds (a folder counts under each of its kinds).
void print_rtl_kinds(const std::vector<Row>& rows) {
    std::map<std::string, std::pair<std::size_t, std::size_t>> by_kind;  // kind -> passed, total
    for (const auto& r : rows)
        for (const std::string& k : r.vector->rtl_kinds) {
            by_kind[k].second++;
            if (r.verdict == "PASS") by_kind[k].first++;
        }
    for (const char* k : {"rtl", "rtlp", "camera", "riscv", "max78002"})
        if (const auto it = by_kind.find(k); it != by_kind.end())
            std::printf("RTL folders %-9s %zu of %zu pass\n", k, it->second.first, it->second.second);
}

// The verdicts against the expected-failures list: the listed vectors that
// failed as listed, those that passed or failed another way, the listed
// names that match no vector, and the others that failed.
struct Judgement {
    std::size_t passed = 0, failed = 0;
    std::vector<std::string> as_listed, passed_listed, changed, stale;
};

void judge_row(const Row& r, const std::string& work_dir, const std::string& list_path, Judgement& j) {
    if (r.verdict == "PASS") {
        ++j.passed;
        if (!r.listed) return;
        std::printf("XPASS %s: listed as an expected failure (%s) but passes; remove it from %s\n",
                    r.vector->name.c_str(), r.listed->where.c_str(), list_path.c_str());
        j.passed_listed.push_back(r.vector->name);
        return;
    }
    ++j.failed;
    const ObservedFailure o = observe(r, work_dir);
    if (!r.listed) {
        std::printf("failed %s: %s\n", r.vector->name.c_str(), describe(o).c_str());
    } else if (const auto difference = mode_difference(*r.listed, o)) {
        std::printf("CHANGED %s: %s (%s)\n", r.vector->name.c_str(), difference->c_str(), r.listed->where.c_str());
        j.changed.push_back(r.vector->name);
    } else {
        std::printf("expected failure %s: %s\n", r.vector->name.c_str(), describe(o).c_str());
        j.as_listed.push_back(r.vector->name);
    }
}

Judgement judge(const std::vector<Row>& rows, const std::string& work_dir, const std::string& list_path,
                const std::vector<std::string>& stale) {
    Judgement j;
    for (const auto& r : rows) judge_row(r, work_dir, list_path, j);
    for (const auto& name : stale)
        std::printf("STALE %s: listed in %s but no vector has that name; remove it\n", name.c_str(), list_path.c_str());
    j.stale = stale;
    return j;
}

std::string joined(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& n : v) s += (s.empty() ? "" : ", ") + n;
    return s;
}

// Honest counts; the expected failures among the failed ones and every
// disagreement with the list are named after them.
std::string last_line(const Judgement& j) {
    std::string last = std::to_string(j.passed) + " passed, " + std::to_string(j.failed) + " failed";
    if (!j.as_listed.empty())
        last += " (" + std::to_string(j.as_listed.size()) + " expected: " + joined(j.as_listed) + ")";
    if (!j.passed_listed.empty())
        last += ", " + std::to_string(j.passed_listed.size()) +
                " listed as expected failure but passed: " + joined(j.passed_listed);
    if (!j.changed.empty())
        last += ", " + std::to_string(j.changed.size()) + " failed otherwise than listed: " + joined(j.changed);
    if (!j.stale.empty())
        last += ", " + std::to_string(j.stale.size()) + " listed name(s) match no vector: " + joined(j.stale);
    return last;
}

std::string absolute(const std::string& path) { return fs::absolute(path).lexically_normal().string(); }

// The outcomes in every results*.jsonl of `dir` (the local file and one per job).
std::map<std::string, JobOutcome> load_all_outcomes(const std::string& dir) {
    std::map<std::string, JobOutcome> all;
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir)) {
        const std::string name = e.path().filename().string();
        if (name.rfind("results", 0) == 0 && e.path().extension() == ".jsonl") files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
        auto lines = ai8x::tools::read_complete_lines(f.string());
        if (!lines.empty() && lines.front() == kResultsHeader) lines.erase(lines.begin());
        for (auto& [name, o] : parse_outcome_lines(lines, f.string())) all[name] = o;
    }
    return all;
}

std::string opt_number(const std::optional<uint64_t>& v) { return v ? std::to_string(*v) : "-"; }

void print_table(const std::vector<Row>& rows) {
    std::size_t w = 6;
    for (const auto& r : rows) w = std::max(w, r.vector->name.size());
    std::printf("%-*s  %-9s  %-7s  %5s  %8s  %10s  %10s  %6s\n", static_cast<int>(w), "vector", "kind", "verdict",
                "exit", "wall_s", "cycles", "expected", "ratio");
    for (const auto& r : rows) {
        const std::string exit_code = r.outcome.exit_code >= 0
                                          ? std::to_string(r.outcome.exit_code)
                                          : (r.outcome.signalled ? "sig" + std::to_string(r.outcome.signal) : "-");
        char ratio[16] = "-";
        if (r.our_cycles && r.vector->expected_cycles && *r.vector->expected_cycles > 0) {
            std::snprintf(ratio, sizeof ratio, "%.3f",
                          static_cast<double>(*r.our_cycles) / static_cast<double>(*r.vector->expected_cycles));
        }
        std::printf("%-*s  %-9s  %-7s  %5s  %8.1f  %10s  %10s  %6s\n", static_cast<int>(w), r.vector->name.c_str(),
                    r.vector->kind.c_str(), r.verdict.c_str(), exit_code.c_str(), r.outcome.wall_seconds,
                    opt_number(r.our_cycles).c_str(), opt_number(r.vector->expected_cycles).c_str(), ratio);
    }
}

}  // namespace

int main(int argc, char* argv[]) {
    std::string vectors_dir = AI8XSIM_DEFAULT_VECTORS;
    std::string ai8xsim = sibling_program("ai8xsim");
    std::string work_dir;
    std::string build_root;
    std::string name_filter;
    std::vector<std::string> kinds;
    unsigned jobs = 2;
    unsigned timeout_s = 600;
    unsigned budget_min = 0;
    bool allow_fail = false;
    std::string expected_failures_path;
    std::string results_path, jobs_dir, merge_dir;
    std::vector<std::string> only;
    bool resume = false;

    CLI::App app{"Runs ai8xsim on every golden vector and reports which ones match the generator's known answers."};
    app.add_option("VECTORS", vectors_dir, "Folder of generator output folders")->capture_default_str();
    app.add_option("-j,--jobs", jobs, "Vectors simulated at the same time")
        ->check(CLI::Range(1u, 64u))
        ->capture_default_str();
    app.add_option("--timeout", timeout_s, "Wall-clock seconds allowed per vector")
        ->check(CLI::Range(1u, 86400u))
        ->capture_default_str();
    app.add_option("--budget", budget_min,
                   "Start no vector after this many minutes; those left count as failed (0: no limit)")
        ->type_name("MIN");
    app.add_option("--ai8xsim", ai8xsim, "ai8xsim executable")->check(CLI::ExistingFile)->capture_default_str();
    app.add_option("--filter", name_filter, "Only vectors whose name matches this regular expression");
    app.add_option("--kind", kinds, "Only vectors of these kinds")
        ->check(CLI::IsMember({"plain", "fifo", "streaming"}));
    app.add_option("--work-dir", work_dir, "Where logs and JSON results go (default: a new folder in /tmp)");
    app.add_option("--build-root", build_root,
                   "Firmware build folders: BUILD_ROOT/<vector> (default: ai8xsim's cache)");
    app.add_option("--expected-failures", expected_failures_path,
                   "List of vectors known to fail (open work) with their failure mode: they run and do not gate "
                   "while they fail that way (README: Conformance runner)")
        ->check(CLI::ExistingFile);
    app.add_flag("--allow-fail", allow_fail, "Exit 0 even if vectors fail (development only)");
    app.add_option("--only", only, "Only the vector of this exact name (repeatable)");
    app.add_option("--results", results_path,
                   "File each finished vector's outcome is appended to (default: WORK_DIR/results.jsonl)");
    app.add_flag("--resume", resume,
                 "With --work-dir of an interrupted run: keep the vectors in its results file, run the others");
    app.add_option("--write-jobs", jobs_dir,
                   "Run nothing; write DIR/jobs.txt (GNU parallel) and DIR/slurm.sh (Slurm job array), one vector "
                   "per job, results and logs in DIR");
    app.add_option("--merge", merge_dir, "Run nothing; tabulate the results of a --write-jobs DIR");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? 0 : 2;
    }

    if (resume && work_dir.empty()) {
        std::fprintf(stderr, "ai8xsim-conformance: --resume needs the --work-dir of the interrupted run\n");
        return 2;
    }
    // A merge tabulates the vectors the job list was written for.
    std::vector<std::string> job_vectors;
    if (!merge_dir.empty()) {
        work_dir = merge_dir;
        std::ifstream in(fs::path(merge_dir) / "conformance.json");
        const nlohmann::json manifest = nlohmann::json::parse(in, nullptr, false);
        const bool names_ok = !manifest.is_discarded() && manifest.contains("vectors") &&
                              manifest["vectors"].is_array() &&
                              std::all_of(manifest["vectors"].begin(), manifest["vectors"].end(),
                                          [](const nlohmann::json& v) { return v.is_string(); });
        if (!in || !names_ok || !manifest.contains("vectors_dir") || !manifest["vectors_dir"].is_string()) {
            std::fprintf(stderr,
                         "ai8xsim-conformance: --merge: %s/conformance.json missing or malformed (written by "
                         "--write-jobs)\n",
                         merge_dir.c_str());
            return 2;
        }
        for (const auto& v : manifest["vectors"]) job_vectors.push_back(v.get<std::string>());
        if (app.count("VECTORS") == 0) vectors_dir = manifest["vectors_dir"].get<std::string>();
    }

    std::vector<VectorInfo> catalog;
    std::vector<ExpectedFailure> expected_failures;
    std::regex filter;
    try {
        catalog = load_catalog(vectors_dir);
        if (!expected_failures_path.empty()) expected_failures = load_expected_failures(expected_failures_path);
        filter = std::regex(name_filter.empty() ? ".*" : name_filter);
    } catch (const CatalogError& e) {
        std::fprintf(stderr, "ai8xsim-conformance: %s\n", e.what());
        return 2;
    } catch (const std::regex_error& e) {
        std::fprintf(stderr, "ai8xsim-conformance: --filter '%s': %s\n", name_filter.c_str(), e.what());
        return 2;
    }
    std::vector<Row> rows;
    for (const auto& v : catalog) {
        if (!std::regex_search(v.name, filter)) continue;
        if (!kinds.empty() && std::find(kinds.begin(), kinds.end(), v.kind) == kinds.end()) continue;
        if (!only.empty() && std::find(only.begin(), only.end(), v.name) == only.end()) continue;
        if (!merge_dir.empty() && std::find(job_vectors.begin(), job_vectors.end(), v.name) == job_vectors.end())
            continue;
        Row row;
        row.vector = &v;
        row.verdict = "NOT-RUN";
        row.timing.name = v.name;
        row.timing.kind = v.kind;
        row.timing.verdict = row.verdict;
        for (const auto& e : expected_failures)
            if (e.name == v.name) row.listed = &e;
        row.timing.expected_failure = row.listed != nullptr;
        row.timing.has_estimate = v.expected_cycles.has_value();
        rows.push_back(std::move(row));
    }
    if (rows.empty()) {
        std::fprintf(stderr, "ai8xsim-conformance: no vector in %s matches the filters\n", vectors_dir.c_str());
        return 2;
    }

    if (!jobs_dir.empty()) {
        // One job per vector, each a complete command with its own results file.
        const std::string base = absolute(jobs_dir);
        std::vector<std::string> commands;
        nlohmann::json names = nlohmann::json::array();
        for (const auto& r : rows) {
            std::vector<std::string> argv = {fs::read_symlink("/proc/self/exe").string(),
                                             absolute(vectors_dir),
                                             "--only=" + r.vector->name,
                                             "--work-dir=" + base,
                                             "--results=" + base + "/results-" + r.vector->name + ".jsonl",
                                             "--timeout=" + std::to_string(timeout_s),
                                             "--ai8xsim=" + absolute(ai8xsim),
                                             "-j",
                                             "1",
                                             "--allow-fail"};
            if (!build_root.empty()) argv.push_back("--build-root=" + absolute(build_root));
            // A listed vector's job dumps its layers, for --merge to compare.
            if (r.listed) argv.push_back("--expected-failures=" + absolute(expected_failures_path));
            // The job's own table goes nowhere: --merge tabulates them all.
            commands.push_back(ai8x::tools::shell_command(argv) + " >/dev/null");
            names.push_back(r.vector->name);
        }
        try {
            fs::create_directories(base);
            ai8x::tools::write_job_files(base, commands, "ai8xsim-conformance");
            const nlohmann::json manifest = {{"vectors_dir", absolute(vectors_dir)}, {"vectors", names}};
            ai8x::tools::write_atomically(base + "/conformance.json", manifest.dump(2) + "\n");
        } catch (const std::exception& e) {
            std::fprintf(stderr, "ai8xsim-conformance: %s\n", e.what());
            return 2;
        }
        std::fprintf(stderr, "ai8xsim-conformance: %zu jobs in %s/jobs.txt and %s/slurm.sh; tabulate with --merge %s\n",
                     commands.size(), base.c_str(), base.c_str(), base.c_str());
        return 0;
    }

    if (work_dir.empty()) {
        char tmpl[] = "/tmp/ai8xsim-conformance-XXXXXX";
        if (!mkdtemp(tmpl)) {
            std::perror("ai8xsim-conformance: mkdtemp");
            return 2;
        }
        work_dir = tmpl;
    }
    fs::create_directories(work_dir);
    // Keeps the SystemC banner out of every vector's log.
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);

    // Vectors with an outcome already (resume, merge) are not run again; their
    // JSON results are still in the work folder.
    std::map<std::string, JobOutcome> known;
    std::unique_ptr<ai8x::tools::AppendFile> results;
    try {
        if (!merge_dir.empty()) {
            known = load_all_outcomes(work_dir);
        } else {
            if (results_path.empty()) results_path = (fs::path(work_dir) / "results.jsonl").string();
            results = std::make_unique<ai8x::tools::AppendFile>(results_path, kResultsHeader, resume);
            known = parse_outcome_lines(results->take_lines(), results_path);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "ai8xsim-conformance: %s\n", e.what());
        return 2;
    }
    std::size_t finished = 0;
    auto record = [&](Row& r, const JobOutcome& o) {
        r.outcome = o;
        r.verdict = verdict_of(o);
        read_result(fs::path(work_dir) / (r.vector->name + ".json"), r.listed != nullptr, r);
        std::fprintf(stderr, "[%zu/%zu] %-7s %s (%.1f s)\n", ++finished, rows.size(), r.verdict.c_str(),
                     r.vector->name.c_str(), o.wall_seconds);
    };
    std::vector<std::size_t> to_run;  // indices into rows
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto it = known.find(rows[i].vector->name);
        if (it != known.end())
            record(rows[i], it->second);
        else if (merge_dir.empty())
            to_run.push_back(i);
    }

    // Each run gets its own TMPDIR (WORK_DIR/NAME-tmp, removed when it ends),
    // so the cache is named explicitly: a run's last-resort default
    // ($TMPDIR/ai8xsim-cache) would otherwise be a folder of its own. After a
    // time-out or a crash, what the run half-wrote in the cache or beside its
    // JSON result is removed (tools/process_pool.h).
    const std::string default_cache = ai8x::default_firmware_cache_root();
    std::vector<Job> job_list;
    for (std::size_t i : to_run) {
        const Row& r = rows[i];
        const fs::path base = fs::path(work_dir) / r.vector->name;
        const std::string cache = build_root.empty() ? default_cache : (fs::path(build_root) / r.vector->name).string();
        Job job;
        job.argv = {ai8xsim, "run", r.vector->dir, "--json", base.string() + ".json", "--quiet", "--build-dir", cache};
        const fs::path dumps = layer_dumps(work_dir, r.vector->name);
        fs::remove_all(dumps);  // never compare the dumps of an earlier run
        if (r.listed) job.argv.insert(job.argv.end(), {"--dump-layers", dumps.string()});
        // An RTL folder's run folder: its dumps, and the folder's verify-output.py run on them.
        if (r.vector->is_rtl()) job.argv.insert(job.argv.end(), {"--out", base.string() + "-rtl"});
        job.log_path = base.string() + ".log";
        job.tmp_dir = base.string() + "-tmp";
        job.leftover_dirs = {cache, work_dir};
        fs::remove(base.string() + ".json");  // never read a result left by an earlier run
        job_list.push_back(std::move(job));
    }

    std::fprintf(stderr, "ai8xsim-conformance: %zu vector(s), %zu to run, %u job(s), %u s limit each, logs in %s\n",
                 rows.size(), to_run.size(), jobs, timeout_s, work_dir.c_str());
    bool results_lost = false;  // a results line could not be written: resume would be wrong
    ai8x::tools::PoolLimits limits;
    limits.parallel = jobs;
    limits.seconds_per_job = timeout_s;
    if (budget_min > 0) limits.start_deadline = std::chrono::steady_clock::now() + std::chrono::minutes(budget_min);
    const auto job_at = [&](std::size_t i) { return job_list[i]; };
    ai8x::tools::run_jobs(job_list.size(), job_at, limits, [&](std::size_t i, const JobOutcome& o) {
        Row& r = rows[to_run[i]];
        // No process, so no log to look in: the reason goes to the console.
        if (o.spawn_failed)
            std::fprintf(stderr, "ai8xsim-conformance: %s: %s\n", r.vector->name.c_str(), o.error.c_str());
        // A vector never started has no outcome to keep: a resume runs it.
        if (!o.not_started) {
            try {
                results->append(outcome_line(r.vector->name, o));
            } catch (const std::exception& e) {
                std::fprintf(stderr, "ai8xsim-conformance: %s\n", e.what());
                results_lost = true;
            }
        }
        record(r, o);
    });

    print_table(rows);
    // Gate: every vector passes, except listed expected failures, which must
    // fail as listed; every listed name must name a vector.
    const Judgement verdicts = judge(rows, work_dir, expected_failures_path, stale_names(expected_failures, catalog));
    std::map<std::string, std::pair<std::size_t, std::size_t>> by_kind;  // kind -> passed, total
    for (const auto& r : rows) {
        auto& k = by_kind[r.vector->kind];
        k.second++;
        if (r.verdict == "PASS") k.first++;
    }
    for (const auto& [kind, counts] : by_kind)
        std::printf("kind %-9s %zu of %zu pass\n", kind.c_str(), counts.first, counts.second);
    print_rtl_kinds(rows);
    if (verdicts.failed > 0) std::printf("logs of the failed vectors: %s/<vector>.log\n", work_dir.c_str());

    std::vector<VectorCycles> timing;
    for (const auto& r : rows) timing.push_back(r.timing);
    const CycleStats stats = compute_cycle_stats(timing);
    std::printf("\n%s", format_cycle_stats(stats).c_str());

    std::printf("%s\n", last_line(verdicts).c_str());
    std::fflush(stdout);
    const bool verdicts_ok =
        verdicts.failed == verdicts.as_listed.size() && verdicts.passed_listed.empty() && verdicts.stale.empty();
    if (results_lost) return 2;
    return (verdicts_ok && stats.unmet.empty()) || allow_fail ? 0 : 1;
}
