#include "app/generator_estimate.h"

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace ai8x {

std::optional<GeneratorEstimate> read_generator_estimate(const std::string& dir) {
    const std::filesystem::path meta = std::filesystem::path(dir) / "meta.json";
    if (!std::filesystem::exists(meta)) return std::nullopt;
    std::ifstream in(meta);
    if (!in) throw std::runtime_error(meta.string() + ": cannot open");
    return parse_generator_estimate(in, meta.string());
}

std::optional<GeneratorEstimate> parse_generator_estimate(std::istream& in, const std::string& name) {
    nlohmann::json j;
    try {
        in >> j;
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(name + ": malformed JSON: " + e.what());
    }
    const auto table = j.find("latency_cycles");
    if (table == j.end() || !table->is_object()) return std::nullopt;

    GeneratorEstimate est;
    for (const auto& [key, value] : table->items()) {
        if (!value.is_number_unsigned())
            throw std::runtime_error(name + ": latency_cycles." + key + ": expected a cycle count");
        const uint64_t cycles = value.get<uint64_t>();
        if (key == "Total") {
            est.total = cycles;
        } else if (key == "Startup") {
            est.startup = cycles;
        } else if (key.rfind("Layer ", 0) == 0) {
            try {
                est.layers[std::stoi(key.substr(6))] = cycles;
            } catch (const std::exception&) {
                throw std::runtime_error(name + ": latency_cycles: unexpected key '" + key + "'");
            }
        }
        // Other keys (none today) are ignored: they carry no per-layer number we compare with.
    }
    return est;
}

}  // namespace ai8x
