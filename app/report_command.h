// `ai8xsim report RUN.json -o report.html`: one self-contained HTML page
// (inline CSS and SVG, no scripts, no external resources) from a run JSON.
#pragma once

#include <string>

namespace ai8x {

struct ReportOptions {
    std::string run_json;  // written by `ai8xsim run --json`
    std::string html_out;
    std::string title;  // empty: the vector folder name from the JSON
};

// 0 on success; 2 when the JSON is missing, malformed or lacks a required field
// (the message on stderr names the file and the field), or the page cannot be written.
int report_command(const ReportOptions& opts);

}  // namespace ai8x
