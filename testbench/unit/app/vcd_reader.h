// A small reader of value change dumps for the waveform tests: the header
// ($timescale, nested $scope, $var), the end of the definitions, then the
// timestamps and value changes. Anything malformed is collected in `problems`
// (undeclared identifier, time going back, missing $enddefinitions), so the
// tests check well-formedness independently of the writer.
#pragma once

#include <cctype>
#include <cstdint>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace ai8x::test {

struct VcdFile {
    struct Change {
        uint64_t time;
        std::optional<uint64_t> value;  // nothing: x or z
    };
    std::string timescale;                             // e.g. "1 ps"
    double tick_seconds = 0;                           // one time unit
    bool definitions_ended = false;                    // $enddefinitions seen
    std::map<std::string, std::string> id_of;          // "cnn.q0.busy" -> identifier code
    std::map<std::string, int> width_of;               // identifier code -> bits
    std::map<std::string, std::vector<Change>> by_id;  // identifier -> changes in file order
    std::vector<std::string> problems;

    // Changes of the signal with hierarchical name `name` (empty if undeclared).
    const std::vector<Change>& changes(const std::string& name) const {
        static const std::vector<Change> none;
        const auto id = id_of.find(name);
        if (id == id_of.end()) return none;
        const auto c = by_id.find(id->second);
        return c == by_id.end() ? none : c->second;
    }
    bool declared(const std::string& name) const { return id_of.count(name) != 0; }
};

inline double vcd_unit_seconds(const std::string& unit) {
    static const std::map<std::string, double> units{{"s", 1},     {"ms", 1e-3},  {"us", 1e-6},
                                                     {"ns", 1e-9}, {"ps", 1e-12}, {"fs", 1e-15}};
    const auto u = units.find(unit);
    return u == units.end() ? 0 : u->second;
}

inline std::optional<uint64_t> vcd_value(const std::string& bits) {
    uint64_t v = 0;
    for (char c : bits) {
        if (c != '0' && c != '1') return std::nullopt;
        v = v << 1 | uint64_t(c - '0');
    }
    return v;
}

inline VcdFile read_vcd(const std::string& path) {
    VcdFile f;
    std::ifstream in(path);
    if (!in) {
        f.problems.push_back(path + ": cannot read");
        return f;
    }
    std::vector<std::string> scope;
    std::string tok;
    // Header: keyword sections up to $enddefinitions.
    while (!f.definitions_ended && in >> tok) {
        std::vector<std::string> words;
        std::string w;
        while (in >> w && w != "$end") words.push_back(w);
        if (tok == "$timescale") {
            std::string joined;
            for (const auto& x : words) joined += x;
            std::size_t digits = 0;
            while (digits < joined.size() && std::isdigit(static_cast<unsigned char>(joined[digits]))) ++digits;
            f.timescale = words.size() == 2 ? words[0] + " " + words[1] : joined;
            f.tick_seconds = std::stod(joined.substr(0, digits)) * vcd_unit_seconds(joined.substr(digits));
        } else if (tok == "$scope") {
            if (words.size() != 2) f.problems.push_back("malformed $scope");
            scope.push_back(words.size() == 2 ? words[1] : "?");
        } else if (tok == "$upscope") {
            if (scope.empty())
                f.problems.push_back("$upscope without $scope");
            else
                scope.pop_back();
        } else if (tok == "$var") {
            if (words.size() < 4) {
                f.problems.push_back("malformed $var");
                continue;
            }
            std::string name;
            for (const auto& s : scope) name += s + ".";
            name += words[3];
            if (f.id_of.count(name)) f.problems.push_back("signal declared twice: " + name);
            f.id_of[name] = words[2];
            f.width_of[words[2]] = std::stoi(words[1]);
        } else if (tok == "$enddefinitions") {
            f.definitions_ended = true;
        } else if (tok != "$version" && tok != "$comment" && tok != "$date") {
            f.problems.push_back("unknown header section " + tok);
        }
    }
    if (!f.definitions_ended) f.problems.push_back("no $enddefinitions");
    if (!scope.empty()) f.problems.push_back("unclosed $scope");
    if (f.tick_seconds <= 0) f.problems.push_back("no valid $timescale");

    // Body: #time, $dumpvars ... $end, scalar "0!" and vector "b101 !" changes.
    std::optional<uint64_t> now;
    const auto record = [&](const std::string& id, std::optional<uint64_t> value) {
        if (!f.width_of.count(id)) f.problems.push_back("undeclared identifier " + id);
        if (!now) f.problems.push_back("value change before any timestamp");
        f.by_id[id].push_back({now.value_or(0), value});
    };
    while (in >> tok) {
        if (tok[0] == '#') {
            const uint64_t t = std::stoull(tok.substr(1));
            if (now && t < *now) f.problems.push_back("time goes back at " + tok);
            now = t;
        } else if (tok == "$dumpvars" || tok == "$end" || tok == "$dumpall" || tok == "$dumpon" || tok == "$dumpoff") {
            continue;
        } else if (tok[0] == 'b' || tok[0] == 'B') {
            std::string id;
            in >> id;
            record(id, vcd_value(tok.substr(1)));
        } else if (tok[0] == '0' || tok[0] == '1' || tok[0] == 'x' || tok[0] == 'z') {
            record(tok.substr(1),
                   tok[0] == 'x' || tok[0] == 'z' ? std::nullopt : std::optional<uint64_t>(uint64_t(tok[0] - '0')));
        } else {
            f.problems.push_back("unexpected token " + tok);
        }
    }
    return f;
}

}  // namespace ai8x::test
