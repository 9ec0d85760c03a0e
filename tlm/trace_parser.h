// Reads the line-based trace format described in docs/trace-format.md.
#pragma once

#include <stdexcept>
#include <string>

#include "tlm/trace_command.h"

namespace ai8x {

// A malformed trace. what() is "FILE:LINE: expected ..." (or "FILE: ..." when
// the file itself cannot be read).
struct TraceParseError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Parses a trace file. Files named by load/check are read now, so that every
// input problem is reported before simulation starts.
Trace parse_trace_file(const std::string& path);

// Parses trace text. `source` names it in messages; relative file names in
// load/dump/check are resolved against `base_dir`.
Trace parse_trace_text(const std::string& text, const std::string& source, const std::string& base_dir);

}  // namespace ai8x
