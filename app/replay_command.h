// `ai8xsim replay TRACE`: executes a bus trace (docs/trace-format.md) on the
// virtual board without a CPU and reports every check that did not hold.
#pragma once

#include <string>
#include <vector>

#include "tlm/trace_player.h"

namespace ai8x {

struct ReplayOptions {
    std::string trace_path;
    std::string config_path;  // device description; empty = bundled MAX78000
};

// Exit codes of `ai8xsim replay` (see README).
enum ReplayExit : int { kReplayPass = 0, kReplayCheckFailed = 1, kReplayBadInput = 2, kReplaySimError = 3 };

// What one replay found, in memory (the Python package's answer).
struct ReplayResult {
    int exit_code = kReplayBadInput;
    // What the command line says on stderr as "ai8xsim replay: ..." lines,
    // without that prefix: bad input, problems of the trace, an unfinished run.
    std::vector<std::string> messages;
    TraceResult trace;  // every failed check, commands executed
    double sim_time_us = 0;
};

// The replay as a function call: any number, one after the other or from
// several threads, each on a simulation kernel of its own (app/simulation_turn.h).
ReplayResult replay_in_process(const ReplayOptions& opts);

// replay_in_process, its messages and failures on stderr, its summary on stdout.
int replay_command(const ReplayOptions& opts);

}  // namespace ai8x
