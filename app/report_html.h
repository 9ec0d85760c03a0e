// Renders a run report (the JSON `ai8xsim run --json` writes) as one
// self-contained HTML page: inline CSS and SVG only, no scripts, no external
// resources, so it can be mailed, archived or opened offline.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace ai8x {

// The JSON lacks a field the page needs; what() names the field.
struct ReportInputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A whole number of the run JSON (cycles, words, MACs, an index): refused with
// ReportInputError naming `where` unless it is a non-negative integer (a
// fraction, or a number past the type's range, in a hand-edited file would
// otherwise be converted with undefined behaviour).
uint64_t report_count(const nlohmann::json& value, const std::string& where);
// The same for a layer or instance number, which must also fit an int.
int report_index(const nlohmann::json& value, const std::string& where);

// Text made safe for HTML element content and attribute values.
std::string html_escape(const std::string& text);

// `run` is the parsed run report; `title` is shown in the page header.
std::string render_report_html(const nlohmann::json& run, const std::string& title);

}  // namespace ai8x
