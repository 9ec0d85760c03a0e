// `ai8xsim run DIR`: the in-process run (run_session.h) with the command
// line's sinks: the firmware's console and the summary on stdout, messages on
// stderr as they happen.
#include <cstdio>

#include "app/run_session.h"

namespace ai8x {

int run_command(const RunOptions& opts) { return run_in_process(opts, RunSinks{stdout, stderr}).exit_code; }

}  // namespace ai8x
