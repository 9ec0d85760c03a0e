#include "testbench/unit/model/stream_vectors.h"
#include "testbench/unit/model/vector_loader.h"

#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace ai8x::test {

namespace {

std::vector<std::string> lines_of(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error(path + ": cannot open");
    std::vector<std::string> lines;
    std::string line;
    while (std::getline(in, line)) lines.push_back(line);
    return lines;
}

}  // namespace

IndexVector index_vector(const std::string& vectors_dir, const std::string& name) {
    const std::string path = vectors_dir + "/INDEX.md";
    const std::vector<std::string> lines = lines_of(path);
    IndexVector v;
    v.name = name;
    bool row_found = false;
    for (const auto& cells : index_rows(vectors_dir)) {
        if (cells[0] != name) continue;
        v.chw = cells[2] == "CHW";
        v.fifo = cells[kIndexFifoColumn] == "yes";
        v.streaming = cells[kIndexStreamingColumn] == "yes";
        row_found = true;
    }
    if (!row_found) throw std::runtime_error(path + ": no table row for " + name);

    static const std::regex layer_line(
        R"(^- Layer (\d+): (\d+)x(\d+)x(\d+)( streaming)?, (no pooling|(max|avg) pool (\d+)x(\d+) with stride (\d+)/(\d+)), conv2d with kernel size (\d+)x(\d+), stride 1/1, pad (\d+)/(\d+))");
    bool inside = false;
    for (std::size_t n = 0; n < lines.size(); ++n) {
        const std::string& line = lines[n];
        if (line.rfind("### ", 0) == 0) {
            if (inside) break;
            inside = line == "### " + name;
            continue;
        }
        if (!inside || line.rfind("- Layer ", 0) != 0) continue;
        std::smatch m;
        if (!std::regex_search(line, m, layer_line)) {
            if (line.find(" streaming,") == std::string::npos) continue;  // later layers may be of any kind
            throw std::runtime_error(path + ":" + std::to_string(n + 1) + ": layer line not understood: " + line);
        }
        IndexLayer l;
        l.layer = std::stoi(m[1]);
        l.channels = std::stoul(m[2]);
        l.rows = std::stoul(m[3]);
        l.cols = std::stoul(m[4]);
        l.streaming = m[5].matched;
        if (m[7].matched) {
            l.pool_rows = std::stoul(m[8]);
            l.pool_cols = std::stoul(m[9]);
            l.pool_stride_rows = std::stoul(m[10]);
            l.pool_stride_cols = std::stoul(m[11]);
        }
        l.kernel_rows = std::stoul(m[12]);
        l.kernel_cols = std::stoul(m[13]);
        l.pad_rows = std::stoul(m[14]);
        l.pad_cols = std::stoul(m[15]);
        v.layers.push_back(l);
    }
    if (v.layers.empty()) throw std::runtime_error(path + ": no layer lines for " + name);
    return v;
}

std::vector<std::string> streaming_vector_names(const std::string& vectors_dir) {
    return vector_names_where(vectors_dir, kIndexStreamingColumn);
}

}  // namespace ai8x::test
