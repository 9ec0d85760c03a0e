// The generator's own latency estimate for a network (meta.json
// "latency_cycles", also printed as ESTIMATED LATENCY in its log): the
// yardstick ai8xsim's cycle counts are compared with.
#pragma once

#include <cstdint>
#include <istream>
#include <map>
#include <optional>
#include <string>

namespace ai8x {

struct GeneratorEstimate {
    std::map<int, uint64_t> layers;   // "Layer N" -> cycles
    std::optional<uint64_t> startup;  // "Startup"
    std::optional<uint64_t> total;    // "Total"
};

// Reads DIR/meta.json. Returns nothing when the folder has no meta.json or it
// holds no latency table (hand-written firmware); throws std::runtime_error
// naming the file when the file exists but is malformed.
std::optional<GeneratorEstimate> read_generator_estimate(const std::string& dir);
// The same from meta.json's contents; `name` names the file in messages.
std::optional<GeneratorEstimate> parse_generator_estimate(std::istream& in, const std::string& name);

}  // namespace ai8x
