#include "app/layer_dump.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace fs = std::filesystem;

namespace ai8x {

namespace {
constexpr const char* kMagic = "ai8xsim-layer-dump";
constexpr const char* kVersion = "v1";
}  // namespace

void write_layer_dumps(const std::vector<LayerOutput>& layers, const std::string& dir) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw std::runtime_error(dir + ": cannot create directory: " + ec.message());
    for (const LayerOutput& l : layers) {
        const std::string path = (fs::path(dir) / ("layer_" + std::to_string(l.layer) + ".txt")).string();
        std::ofstream f(path);
        if (!f) throw std::runtime_error(path + ": cannot write");
        f << kMagic << ' ' << kVersion << " layer " << l.layer << '\n';
        f << "shape " << l.channels << ' ' << l.rows << ' ' << l.cols << '\n';
        std::size_t i = 0;
        for (uint32_t c = 0; c < l.channels; ++c) {
            f << "channel " << c << '\n';
            for (uint32_t r = 0; r < l.rows; ++r) {
                for (uint32_t x = 0; x < l.cols; ++x) f << (x ? " " : "") << l.values[i++];
                f << '\n';
            }
        }
        if (!f) throw std::runtime_error(path + ": write failed");
    }
}

LayerOutput read_layer_dump(const std::string& path) {
    std::ifstream f(path);
    if (!f) throw std::runtime_error(path + ": cannot read");
    LayerOutput l;
    int line_no = 0;
    std::string line;
    auto next = [&](const char* what) {
        if (!std::getline(f, line)) throw std::runtime_error(path + ": ends before " + what);
        ++line_no;
        return std::istringstream(line);
    };
    auto bad = [&](const std::string& why) {
        return std::runtime_error(path + ":" + std::to_string(line_no) + ": " + why);
    };
    {
        auto s = next("the header");
        std::string magic, version, word;
        if (!(s >> magic >> version >> word >> l.layer) || magic != kMagic || version != kVersion || word != "layer")
            throw bad("not an ai8xsim layer dump v1 header");
    }
    {
        auto s = next("the shape");
        std::string word;
        if (!(s >> word >> l.channels >> l.rows >> l.cols) || word != "shape") throw bad("expected 'shape C H W'");
    }
    l.values.reserve(std::size_t{l.channels} * l.rows * l.cols);
    for (uint32_t c = 0; c < l.channels; ++c) {
        auto s = next("a channel line");
        std::string word;
        uint32_t index = 0;
        if (!(s >> word >> index) || word != "channel" || index != c)
            throw bad("expected 'channel " + std::to_string(c) + "'");
        for (uint32_t r = 0; r < l.rows; ++r) {
            auto row = next("a row of values");
            for (uint32_t x = 0; x < l.cols; ++x) {
                int64_t v = 0;
                if (!(row >> v)) throw bad("expected " + std::to_string(l.cols) + " values");
                l.values.push_back(v);
            }
        }
    }
    return l;
}

}  // namespace ai8x
