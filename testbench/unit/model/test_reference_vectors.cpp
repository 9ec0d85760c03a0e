// Checks the reference model layer by layer against the vendor generator's own
// simulation: every golden vector's --verbose log prints, per layer, the input,
// kernels, bias and the resulting output. Each printed layer is recomputed from
// its printed inputs and compared value by value.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "testbench/reference/generator_log.h"
#include "testbench/reference/reference_layer.h"
#include "testbench/unit/test_support.h"
#include "build_paths.h"

namespace fs = std::filesystem;
using namespace ai8x::reference;
using ai8x::test::read_gzip;

namespace {

const fs::path kVectorsPath = fs::path(AI8XSIM_SHARED_DIR) / "vectors";

std::vector<fs::path> vector_dirs(const std::string& prefix) {
    REQUIRE(fs::is_directory(kVectorsPath));
    std::vector<fs::path> dirs;
    for (const auto& e : fs::directory_iterator(kVectorsPath))
        if (e.is_directory() && e.path().filename().string().rfind(prefix, 0) == 0 &&
            fs::exists(e.path() / "log.txt.gz"))
            dirs.push_back(e.path());
    std::sort(dirs.begin(), dirs.end());
    return dirs;
}

struct Tally {
    int vectors = 0, layers = 0, skipped = 0, values = 0;
};

// First differing value, described for the failure message.
std::string first_difference(const Tensor& got, const Tensor& want) {
    if (got.channels != want.channels || got.height != want.height || got.width != want.width)
        return "shape " + got.shape_string() + " vs expected " + want.shape_string();
    for (int c = 0; c < want.channels; ++c)
        for (int y = 0; y < want.height; ++y)
            for (int x = 0; x < want.width; ++x)
                if (got.at(c, y, x) != want.at(c, y, x))
                    return "first difference at (c=" + std::to_string(c) + ", y=" + std::to_string(y) +
                           ", x=" + std::to_string(x) + "): got " + std::to_string(got.at(c, y, x)) + ", expected " +
                           std::to_string(want.at(c, y, x));
    return "";
}

Tally check_vectors(const std::vector<fs::path>& dirs, const std::string& group) {
    Tally t;
    for (const fs::path& dir : dirs) {
        const std::string name = dir.filename().string();
        std::istringstream text(read_gzip(dir / "log.txt.gz"));
        const GeneratorLog log = parse_generator_log(text, name + "/log.txt.gz");
        ++t.vectors;
        for (const std::string& s : log.skipped) WARN("skipped " << name << " " << s);
        t.skipped += static_cast<int>(log.skipped.size());
        for (const LogLayerCase& c : log.layers) {
            INFO(name << " layer " << c.layer << ": " << describe(c.params));
            const Tensor got = run_layer(c.params, c.inputs, c.weights, c.bias);
            REQUIRE(first_difference(got, c.expected) == "");
            ++t.layers;
            t.values += static_cast<int>(c.expected.size());
        }
    }
    WARN(group << ": " << t.vectors << " vectors, " << t.layers << " layers (" << t.values << " values) match, "
               << t.skipped << " layers skipped");
    return t;
}

}  // namespace

TEST_CASE("reference matches the generator on the demo networks", "[reference][vectors]") {
    const Tally t = check_vectors(vector_dirs("demo-"), "demos");
    CHECK(t.vectors >= 5);
    CHECK(t.skipped == 0);
}

TEST_CASE("reference matches the generator on the conv1d tests", "[reference][vectors]") {
    const Tally t = check_vectors(vector_dirs("t-test-conv1d"), "conv1d tests");
    CHECK(t.vectors >= 40);
    CHECK(t.skipped == 0);
}

TEST_CASE("reference matches the generator on the other unit tests", "[reference][vectors]") {
    // Everything that is not a demo and not conv1d: eltwise, pooling, upsampling,
    // flatten/MLP, passthrough, wide in/out, multi-pass, streaming.
    std::vector<fs::path> dirs;
    for (const fs::path& dir : vector_dirs("t-test-"))
        if (dir.filename().string().rfind("t-test-conv1d", 0) != 0) dirs.push_back(dir);
    const Tally t = check_vectors(dirs, "other tests");
    CHECK(t.vectors >= 100);
    CHECK(t.skipped == 0);
}
