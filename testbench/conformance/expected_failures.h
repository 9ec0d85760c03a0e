// Expected failures: golden vectors known to fail because of documented open
// work, each listed with the failure mode it must keep. A listed vector that
// passes, fails in another way (another verdict, another first failing layer,
// another reason) or names no vector of the folder fails the conformance run,
// so the list says exactly what is known and can only shrink.
//
// List file (README "Conformance runner"): one entry a line,
//     NAME  VERDICT  layer N        the run FAILs its known-answer test and
//                                   layer N is the first layer whose output
//                                   differs from the generator's log
//     NAME  VERDICT  TEXT           the run's reason (below) contains TEXT
// VERDICT is FAIL or ERROR (a time-out or a crash depends on the machine or
// is a defect; neither is an expected mode). '#' starts a comment: the
// documented reason and the issue go there.
#pragma once

#include <istream>
#include <optional>
#include <string>
#include <vector>

#include "testbench/conformance/vector_catalog.h"
#include "tools/process_pool.h"

namespace ai8x::conformance {

struct ExpectedFailure {
    std::string name;
    std::string verdict;       // FAIL or ERROR
    std::optional<int> layer;  // "layer N"
    std::string reason;        // otherwise: text the observed reason contains
    std::string where;         // FILE:LINE of the entry
};

// How a run that did not pass ended.
struct ObservedFailure {
    std::string verdict;       // FAIL, ERROR, TIMEOUT, CRASH, NOT-RUN
    std::string reason;        // one line: the run's error, the firmware's mismatch report, ...
    std::optional<int> layer;  // first layer differing from the generator's log (if compared)
    std::string layer_note;    // the layer comparison's finding, or why there is none
};

// The entries of a list (`path` names it in messages). Throws CatalogError
// naming FILE:LINE for a malformed entry or a name listed twice.
std::vector<ExpectedFailure> parse_expected_failures(std::istream& in, const std::string& path);
std::vector<ExpectedFailure> load_expected_failures(const std::string& path);

// The listed names that match no vector of `catalog`.
std::vector<std::string> stale_names(const std::vector<ExpectedFailure>& list, const std::vector<VectorInfo>& catalog);

// The reason of a run that did not pass, in one line: for an ERROR the run's
// `error` (from `result_json`, the run's JSON text, or else the first
// "ai8xsim run: " line of `log`); for a FAIL the firmware console's first
// line after its test header; for the others what the runner saw.
std::string failure_reason(const std::string& verdict, const tools::JobOutcome& outcome, const std::string& result_json,
                           const std::string& log);

// The first failing layer that `ai8xsim-layer-diff` output `diff_output`
// names ("layer N: MISMATCH ..."), with that line as the note; no layer when
// every compared layer matches, with `diff_output`'s gist as the note.
void read_layer_diff(const std::string& diff_output, ObservedFailure& observed);

// Runs `layer_diff` (ai8xsim-layer-diff) on a run's `dumps` folder and its
// vector folder and records the first failing layer in `observed`.
void compare_layers(const std::string& layer_diff, const std::string& dumps, const std::string& vector_dir,
                    ObservedFailure& observed);

// Why `observed` is not the listed mode, in one sentence; nothing if it is.
std::optional<std::string> mode_difference(const ExpectedFailure& listed, const ObservedFailure& observed);

// "FAIL layer 1", "ERROR: bus fault ...": a mode as it would be listed.
std::string describe(const ExpectedFailure& listed);
std::string describe(const ObservedFailure& observed);

}  // namespace ai8x::conformance
