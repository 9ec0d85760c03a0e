#include "testbench/conformance/result_log.h"

#include <nlohmann/json.hpp>

#include "testbench/conformance/vector_catalog.h"

namespace ai8x::conformance {

const char* const kResultsHeader = "# ai8xsim-conformance results: one JSON object per finished vector";

std::string outcome_line(const std::string& vector, const JobOutcome& o) {
    const nlohmann::json j = {{"vector", vector},
                              {"exit_code", o.exit_code},
                              {"timed_out", o.timed_out},
                              {"signalled", o.signalled},
                              {"signal", o.signal},
                              {"spawn_failed", o.spawn_failed},
                              {"wall_seconds", o.wall_seconds}};
    return j.dump();
}

std::map<std::string, JobOutcome> parse_outcome_lines(const std::vector<std::string>& lines, const std::string& where) {
    std::map<std::string, JobOutcome> out;
    for (size_t i = 0; i < lines.size(); ++i) {
        // Line numbers count the header the caller left out.
        const std::string at = where + ":" + std::to_string(i + 2);
        const nlohmann::json j = nlohmann::json::parse(lines[i], nullptr, false);
        if (j.is_discarded() || !j.is_object()) throw CatalogError(at + ": not a JSON object");
        auto need = [&](const char* key, auto check) {
            const auto it = j.find(key);
            if (it == j.end() || !check(*it)) throw CatalogError(at + ": field '" + key + "' missing or of wrong type");
            return *it;
        };
        const auto is_int = [](const nlohmann::json& v) { return v.is_number_integer(); };
        const auto is_bool = [](const nlohmann::json& v) { return v.is_boolean(); };
        JobOutcome o;
        const std::string name = need("vector", [](const nlohmann::json& v) { return v.is_string(); });
        o.exit_code = need("exit_code", is_int);
        o.timed_out = need("timed_out", is_bool);
        o.signalled = need("signalled", is_bool);
        o.signal = need("signal", is_int);
        o.spawn_failed = need("spawn_failed", is_bool);
        o.wall_seconds = need("wall_seconds", [](const nlohmann::json& v) { return v.is_number(); });
        out[name] = o;
    }
    return out;
}

}  // namespace ai8x::conformance
