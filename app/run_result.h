// What one `ai8xsim run` found, in memory: the in-process API's answer
// (app/run_session.h) and what the command line prints and writes.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/run_options.h"
#include "app/run_report.h"
#include "model/engine/layer_engine.h"

namespace ai8x {

struct RunResult {
    // RunExit: kRunPass, kRunFail, kRunSimError, or kRunUsageError when the
    // run could not start (bad folder, options, device description or build);
    // `messages` then says why.
    int exit_code = kRunUsageError;
    // Everything the run said as "ai8xsim run: ..." lines on the command
    // line's stderr, in order, without that prefix (a build failure's
    // compiler output follows its message as a line of its own). Log
    // messages (spdlog) are not here.
    std::vector<std::string> messages;
    // Verdict (report.result), known-answer test (report.kat), CNN cycles,
    // per-layer cycles, phases, energy, warnings, activity, memory map,
    // firmware console: everything of the run JSON, also without --json.
    // Empty until the simulation ran.
    RunReport report;
    // Every layer's output of the last inference, when RunOptions asked for
    // them (capture_layers or dump_layers_dir).
    std::vector<LayerOutput> layer_outputs;
    // Fields the folder's kind adds to the run JSON (an object, or null).
    nlohmann::json kind_fields;
    std::string folder_kind;  // the kind of firmware folder that ran (app/folder_kind.h)

    bool passed() const { return exit_code == kRunPass; }
    bool started() const { return exit_code != kRunUsageError; }
    // The document `--json FILE` writes: the report's, with the kind's
    // fields; null when the run did not start. Composed on each call.
    nlohmann::json json() const;
};

}  // namespace ai8x
