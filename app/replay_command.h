// `ai8xsim replay TRACE`: executes a bus trace (docs/trace-format.md) on the
// virtual board without a CPU and reports every check that did not hold.
#pragma once

#include <string>

namespace ai8x {

struct ReplayOptions {
    std::string trace_path;
    std::string config_path;  // device description; empty = bundled MAX78000
};

// Exit codes of `ai8xsim replay` (see README).
enum ReplayExit : int { kReplayPass = 0, kReplayCheckFailed = 1, kReplayBadInput = 2, kReplaySimError = 3 };

int replay_command(const ReplayOptions& opts);

}  // namespace ai8x
