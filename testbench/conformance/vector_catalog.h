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
    // A folder of the vendor's RTL simulation (it has run_test.sv): the kinds
    // its summary counts it under, any of "rtl" (the program writes the input)
    // or "rtlp" (preloads and expected dumps), "camera" (input.csv), "riscv"
    // (test_riscv.c), "max78002" (meta.json's device). Empty for other folders.
    std::vector<std::string> rtl_kinds;
    bool is_rtl() const { return !rtl_kinds.empty(); }
};

// Every sub-folder of `vectors_dir` that holds a meta.json, sorted by name.
// Throws CatalogError if the folder cannot be read or a meta.json is malformed.
std::vector<VectorInfo> load_catalog(const std::string& vectors_dir);

// The readers load_catalog uses, on streams (`name` names the file in messages):
// INDEX.md's table as vector name -> kind ("plain", "fifo", "streaming"), and
// meta.json's latency_cycles.Total (nothing if absent; CatalogError if malformed).
std::map<std::string, std::string> parse_index_kinds(std::istream& index);
std::optional<uint64_t> parse_total_latency(std::istream& meta, const std::string& name);

// The RTL kinds of the folder `dir` (VectorInfo::rtl_kinds), from its files
// and meta.json's "device"; nothing if it has no run_test.sv.
std::vector<std::string> rtl_kinds_of(const std::string& dir);

}  // namespace ai8x::conformance
