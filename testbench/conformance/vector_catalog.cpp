#include "testbench/conformance/vector_catalog.h"
#include "testbench/conformance/text_trim.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

namespace ai8x::conformance {

namespace {

namespace fs = std::filesystem;

}  // namespace

// INDEX.md holds a Markdown table "| vector | device | input | FIFO | streaming | ...".
// Columns are located by their header so that added columns do not break this.
std::map<std::string, std::string> parse_index_kinds(std::istream& in) {
    std::map<std::string, std::string> kinds;
    int fifo_col = -1, stream_col = -1;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("|", 0) != 0) continue;
        std::vector<std::string> cells;
        std::istringstream row(line.substr(1));
        for (std::string cell; std::getline(row, cell, '|');) cells.push_back(trim_blanks(cell));
        if (cells.empty() || cells[0].rfind("---", 0) == 0) continue;
        if (cells[0] == "vector") {
            for (std::size_t i = 0; i < cells.size(); ++i) {
                if (cells[i] == "FIFO") fifo_col = static_cast<int>(i);
                if (cells[i] == "streaming") stream_col = static_cast<int>(i);
            }
            continue;
        }
        auto yes = [&](int col) { return col >= 0 && col < static_cast<int>(cells.size()) && cells[col] == "yes"; };
        kinds[cells[0]] = yes(stream_col) ? "streaming" : yes(fifo_col) ? "fifo" : "plain";
    }
    return kinds;
}

std::optional<uint64_t> parse_total_latency(std::istream& in, const std::string& name) {
    nlohmann::json j;
    try {
        in >> j;
    } catch (const nlohmann::json::exception& e) {
        throw CatalogError(name + ": malformed JSON: " + e.what());
    }
    const auto it = j.find("latency_cycles");
    if (it == j.end() || !it->is_object()) return std::nullopt;
    const auto total = it->find("Total");
    if (total == it->end() || !total->is_number_unsigned()) return std::nullopt;
    return total->get<uint64_t>();
}

std::vector<std::string> rtl_kinds_of(const std::string& dir) {
    const fs::path d(dir);
    if (!fs::exists(d / "run_test.sv")) return {};
    // --rtl-preload writes the input (and weights) as data/*.dat; --result-output the expected dumps.
    std::vector<std::string> kinds{fs::exists(d / "data") || fs::exists(d / "data-expected") ? "rtlp" : "rtl"};
    if (fs::exists(d / "input.csv")) kinds.push_back("camera");
    if (fs::exists(d / "test_riscv.c")) kinds.push_back("riscv");
    std::ifstream meta(d / "meta.json");
    const nlohmann::json j = nlohmann::json::parse(meta, nullptr, false);
    if (j.is_object() && j.value("device", "") == "MAX78002") kinds.push_back("max78002");
    return kinds;
}

namespace {

std::map<std::string, std::string> read_kinds(const fs::path& index) {
    std::ifstream in(index);
    if (!in) return {};
    return parse_index_kinds(in);
}

std::optional<uint64_t> read_total_latency(const fs::path& meta) {
    std::ifstream in(meta);
    if (!in) throw CatalogError(meta.string() + ": cannot open");
    return parse_total_latency(in, meta.string());
}

}  // namespace

std::vector<VectorInfo> load_catalog(const std::string& vectors_dir) {
    std::error_code ec;
    if (!fs::is_directory(vectors_dir, ec)) throw CatalogError(vectors_dir + ": not a folder of vectors");
    const auto kinds = read_kinds(fs::path(vectors_dir) / "INDEX.md");
    std::vector<VectorInfo> vectors;
    for (const auto& entry : fs::directory_iterator(vectors_dir)) {
        const fs::path meta = entry.path() / "meta.json";
        if (!entry.is_directory() || !fs::exists(meta)) continue;
        VectorInfo v;
        v.name = entry.path().filename().string();
        v.dir = entry.path().string();
        const auto k = kinds.find(v.name);
        v.kind = k == kinds.end() ? "?" : k->second;
        v.expected_cycles = read_total_latency(meta);
        v.rtl_kinds = rtl_kinds_of(v.dir);
        vectors.push_back(std::move(v));
    }
    std::sort(vectors.begin(), vectors.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    return vectors;
}

}  // namespace ai8x::conformance
