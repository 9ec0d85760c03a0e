// Runs `ai8xsim` processes a few at a time for the sweep and the conformance
// runner, so that a run that is killed or crashes leaves nothing behind:
// - each child is in a process group of its own: a time-out kills the
//   compilers it started too;
// - each child dies with the runner (PR_SET_PDEATHSIG): killing the sweep or
//   the conformance runner leaves no orphan simulating on;
// - a child may get a TMPDIR of its own, created before it starts and removed
//   after it ends: what its compilers leave there goes with it;
// - after a time-out or a crash, the files it had half-written (ai8xsim names
//   them NAME.tmp<pid>: firmware/host/temporary_files.h) are removed from the
//   folders the job names.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace ai8x::tools {

struct Job {
    std::vector<std::string> argv;  // argv[0] is the program's path (no PATH search)
    std::string log_path;           // stdout and stderr of the child
    std::string tmp_dir;            // the child's TMPDIR, its own (empty: the runner's)
    // Searched for the child's NAME.tmp<pid> files after a kill or a crash:
    // each folder and its direct subfolders (a firmware cache keeps an
    // image's files one level down).
    std::vector<std::string> leftover_dirs;
};

struct JobOutcome {
    int exit_code = -1;  // valid when !timed_out && !signalled && !spawn_failed
    bool timed_out = false;
    bool signalled = false;  // died from a signal (crash) without a time-out
    int signal = 0;
    bool spawn_failed = false;  // no process (see error)
    std::string error;
    bool not_started = false;  // the start deadline passed before its turn came
    double wall_seconds = 0;
};

struct PoolLimits {
    unsigned parallel = 1;
    double seconds_per_job = 0;  // wall-clock limit of one job; 0: none
    // No job starts after this; those left are reported not_started.
    std::chrono::steady_clock::time_point start_deadline = std::chrono::steady_clock::time_point::max();
};

// Runs jobs 0 to count-1 in that order, at most `limits.parallel` at a
// time; `job_at(index)` describes each when its turn comes (a sweep of a
// million points keeps no million job descriptions). `on_done(index,
// outcome)` is called as each one ends, in the order they end.
void run_jobs(std::size_t count, const std::function<Job(std::size_t)>& job_at, const PoolLimits& limits,
              const std::function<void(std::size_t, const JobOutcome&)>& on_done);

}  // namespace ai8x::tools
