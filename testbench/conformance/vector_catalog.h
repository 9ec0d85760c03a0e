// What the conformance runner knows about a folder of golden vectors: the
// vector folders themselves, their kind from INDEX.md and the generator's
// latency estimate from meta.json.
#pragma once

#include <cstdint>
#include <istream>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ai8x::conformance {

struct CatalogError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct VectorInfo {
    std::string name;
    std::string dir;
    std::string kind;                         // "plain", "fifo", "streaming" or "?" if not in INDEX.md
    std::optional<uint64_t> expected_cycles;  // meta.json latency_cycles.Total
};

// Every sub-folder of `vectors_dir` that holds a meta.json, sorted by name.
// Throws CatalogError if the folder cannot be read or a meta.json is malformed.
std::vector<VectorInfo> load_catalog(const std::string& vectors_dir);

// The readers load_catalog uses, on streams (`name` names the file in messages):
// INDEX.md's table as vector name -> kind ("plain", "fifo", "streaming"), and
// meta.json's latency_cycles.Total (nothing if absent; CatalogError if malformed).
std::map<std::string, std::string> parse_index_kinds(std::istream& index);
std::optional<uint64_t> parse_total_latency(std::istream& meta, const std::string& name);

}  // namespace ai8x::conformance
