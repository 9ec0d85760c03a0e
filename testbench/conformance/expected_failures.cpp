#include "testbench/conformance/expected_failures.h"
#include "testbench/conformance/text_trim.h"

#include <array>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "tools/result_file.h"

namespace ai8x::conformance {

namespace {

// One entry line without its comment: NAME VERDICT (layer N | TEXT).
ExpectedFailure parse_entry(const std::string& text, const std::string& where) {
    static const std::regex entry(R"(^(\S+)\s+(\S+)\s+(.*\S)$)");
    static const std::regex layer(R"(^layer\s+(\d+)$)");
    std::smatch m;
    if (!std::regex_match(text, m, entry))
        throw CatalogError(where + ": expected 'NAME VERDICT layer N' or 'NAME VERDICT REASON', got '" + text + "'");
    ExpectedFailure e{m[1], m[2], std::nullopt, "", where};
    if (e.verdict != "FAIL" && e.verdict != "ERROR")
        throw CatalogError(where + ": verdict '" + e.verdict +
                           "' is not an expected failure mode (FAIL or ERROR; a TIMEOUT, CRASH or NOT-RUN "
                           "depends on the machine or is a defect)");
    const std::string mode = m[3];
    std::smatch n;
    if (std::regex_match(mode, n, layer)) {
        if (e.verdict != "FAIL")
            throw CatalogError(where +
                               ": 'layer N' names where a FAIL's output first differs; an ERROR "
                               "is listed with the text of its reason");
        e.layer = std::stoi(n[1]);
    } else {
        e.reason = mode;
    }
    return e;
}

// The first line of `text` after the line holding `marker` that is not blank.
std::string line_after(const std::string& text, const std::string& marker) {
    std::istringstream in(text);
    bool seen = false;
    for (std::string line; std::getline(in, line);) {
        if (seen && !trim_blanks(line).empty()) return trim_blanks(line);
        if (line.find(marker) != std::string::npos) seen = true;
    }
    return "";
}

std::string first_line_starting(const std::string& text, const std::string& prefix) {
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (line.rfind(prefix, 0) == 0) return trim_blanks(line.substr(prefix.size()));
    return "";
}

std::string run_reason(const std::string& verdict, const nlohmann::json& result, const std::string& log) {
    if (result.is_object()) {
        const auto error = result.find("error");
        if (verdict == "ERROR" && error != result.end() && error->is_string()) return error->get<std::string>();
        const auto console = result.find("console");
        if (verdict == "FAIL" && console != result.end() && console->is_string()) {
            const std::string report = line_after(console->get<std::string>(), "CNN Inference Test");
            if (!report.empty()) return report;
        }
    }
    const std::string said = first_line_starting(log, "ai8xsim run: ");
    if (!said.empty()) return said;
    return verdict == "FAIL" ? "the known-answer test failed" : "no reason in the run's JSON result or log";
}

}  // namespace

std::vector<ExpectedFailure> parse_expected_failures(std::istream& in, const std::string& path) {
    std::vector<ExpectedFailure> list;
    std::set<std::string> names;
    int number = 0;
    for (std::string line; std::getline(in, line);) {
        ++number;
        const std::string text = trim_blanks(line.substr(0, line.find('#')));
        if (text.empty()) continue;
        const std::string where = path + ":" + std::to_string(number);
        ExpectedFailure e = parse_entry(text, where);
        if (!names.insert(e.name).second) throw CatalogError(where + ": " + e.name + " is listed twice");
        list.push_back(std::move(e));
    }
    return list;
}

std::vector<ExpectedFailure> load_expected_failures(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw CatalogError("cannot read expected-failures list " + path);
    return parse_expected_failures(in, path);
}

std::vector<std::string> stale_names(const std::vector<ExpectedFailure>& list, const std::vector<VectorInfo>& catalog) {
    std::set<std::string> present;
    for (const auto& v : catalog) present.insert(v.name);
    std::vector<std::string> stale;
    for (const auto& e : list)
        if (!present.count(e.name)) stale.push_back(e.name);
    return stale;
}

std::string failure_reason(const std::string& verdict, const tools::JobOutcome& outcome, const std::string& result_json,
                           const std::string& log) {
    if (verdict == "NOT-RUN") return "not started before the --budget ran out";
    if (verdict == "TIMEOUT") return "killed at the --timeout limit";
    if (verdict == "CRASH")
        return "killed by signal " + std::to_string(outcome.signal) + " (" + strsignal(outcome.signal) + ")";
    if (outcome.spawn_failed) return outcome.error;
    return run_reason(verdict, nlohmann::json::parse(result_json, nullptr, false), log);
}

void read_layer_diff(const std::string& diff_output, ObservedFailure& observed) {
    static const std::regex mismatch(R"(^layer (\d+): MISMATCH.*$)");
    std::istringstream in(diff_output);
    std::string last;
    for (std::string line; std::getline(in, line);) {
        std::smatch m;
        if (std::regex_match(line, m, mismatch)) {
            observed.layer = std::stoi(m[1]);
            observed.layer_note = line;
            return;
        }
        if (!trim_blanks(line).empty()) last = trim_blanks(line);
    }
    observed.layer.reset();
    observed.layer_note = "no layer differs from the generator's log" + (last.empty() ? "" : " (" + last + ")");
}

void compare_layers(const std::string& layer_diff, const std::string& dumps, const std::string& vector_dir,
                    ObservedFailure& observed) {
    const std::string command = tools::shell_command({layer_diff, dumps, vector_dir}) + " 2>&1";
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) {
        observed.layer_note = "cannot run " + layer_diff + ": " + std::strerror(errno);
        return;
    }
    std::string output;
    std::array<char, 4096> buf{};
    for (std::size_t n; (n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0;) output.append(buf.data(), n);
    pclose(pipe);
    read_layer_diff(output, observed);
}

std::optional<std::string> mode_difference(const ExpectedFailure& listed, const ObservedFailure& observed) {
    if (observed.verdict != listed.verdict)
        return "listed as " + describe(listed) + ", but its verdict is " + describe(observed);
    if (listed.layer && observed.layer != listed.layer)
        return "listed as " + describe(listed) + ", but " + observed.layer_note;
    if (!listed.layer && observed.reason.find(listed.reason) == std::string::npos)
        return "listed as " + describe(listed) + ", but its reason is: " + observed.reason;
    return std::nullopt;
}

std::string describe(const ExpectedFailure& listed) {
    return listed.verdict + " " + (listed.layer ? "layer " + std::to_string(*listed.layer) : listed.reason);
}

std::string describe(const ObservedFailure& observed) {
    if (observed.layer)
        return observed.verdict + " layer " + std::to_string(*observed.layer) + " (" + observed.reason + ")";
    return observed.verdict + " " + observed.reason;
}

}  // namespace ai8x::conformance
