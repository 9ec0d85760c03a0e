// `ai8xsim run` in-process: the whole run (folder, device, firmware build,
// board, instruments, simulation, verdict, outputs) as a function call that
// returns what the run found (app/run_result.h). The command line is this
// with stdout and stderr as its sinks (run_command, run_options.h).
//
//   RunOptions o;
//   o.vector_dir = "../shared/vectors/demo-mnist";
//   o.quiet_console = true;
//   o.capture_layers = true;
//   const RunResult r = run_in_process(o);
//   if (!r.started()) throw std::runtime_error(r.messages.front());
//   std::printf("%s %llu cycles, layer 0 has %zu values\n", r.report.result.c_str(),
//               (unsigned long long)r.report.cnn_cycles, r.layer_outputs[0].values.size());
//
// Any number of runs, one after the other or from several threads at once,
// in one process: SystemC keeps one simulation kernel per process and a
// kernel elaborates one design, so each run's simulation (board to outputs)
// takes its turn on a kernel of its own, made for it and deleted after it;
// folder checks and firmware builds of several runs overlap. Results do not
// depend on what ran before. While a run holds its turn, this process must
// have no SystemC objects of its own.
#pragma once

#include "app/run_context.h"
#include "app/run_options.h"
#include "app/run_result.h"

namespace ai8x {

// Runs the firmware of opts.vector_dir. Never throws for bad input: a run
// that cannot start has exit_code kRunUsageError and says why in `messages`.
// Text goes to `sinks` as it comes (default: nowhere).
RunResult run_in_process(const RunOptions& opts, const RunSinks& sinks = {});

}  // namespace ai8x
