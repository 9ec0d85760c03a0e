// The conformance runner's results file: one JSON object per finished vector
// (its name and how its run ended), appended as each vector finishes, so an
// interrupted run can resume and the results of jobs run elsewhere (GNU
// parallel, Slurm) can be merged (docs/scale-out.md).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "tools/process_pool.h"

namespace ai8x::conformance {

using ai8x::tools::JobOutcome;

// The first line of every results file.
extern const char* const kResultsHeader;

// `outcome` of `vector` as one line (no newline).
std::string outcome_line(const std::string& vector, const JobOutcome& outcome);

// Every vector's outcome in `lines` (a results file without its header);
// `where` names the file in messages. A malformed line throws CatalogError
// naming the file and line; a later line for the same vector wins.
std::map<std::string, JobOutcome> parse_outcome_lines(const std::vector<std::string>& lines, const std::string& where);

}  // namespace ai8x::conformance
