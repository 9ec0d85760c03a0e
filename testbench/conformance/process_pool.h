// Runs child processes a few at a time, each with its output in a log file
// and a wall-clock limit. A child that exceeds its limit is killed together
// with everything it started (it runs in its own process group).
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace ai8x::conformance {

struct Job {
    std::vector<std::string> argv;  // argv[0] is the program path
    std::string log_path;           // stdout and stderr of the child
};

struct JobOutcome {
    int exit_code = -1;  // valid when !timed_out && !signalled
    bool timed_out = false;
    bool signalled = false;  // died from a signal (crash) without a time-out
    int signal = 0;
    bool spawn_failed = false;
    bool not_started = false;  // the overall deadline passed before its turn came
    double wall_seconds = 0;
};

// Runs `jobs` with at most `parallel` at a time, each killed after `limit`.
// No job is started after `start_deadline`; those are reported as not_started.
// `on_done(index, outcome)` is called as each one finishes, in completion order.
void run_jobs(const std::vector<Job>& jobs, unsigned parallel, std::chrono::seconds limit,
              std::chrono::steady_clock::time_point start_deadline,
              const std::function<void(std::size_t, const JobOutcome&)>& on_done);

}  // namespace ai8x::conformance
