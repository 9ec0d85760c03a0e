// `ai8xsim run --dump-layers` together with ai8xsim-layer-diff: the dumps of a
// passing vector must agree with the generator's per-layer log, and one altered
// value must be found and named.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

#include "testbench/unit/test_support.h"
#include "build_paths.h"

namespace {

int run(const std::string& cmd) {
    const int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

using ai8x::test::slurp;

}  // namespace

TEST_CASE("dump-layers: dumps match the generator log and a changed value is named", "[run][dump]") {
    const fs::path work = fs::temp_directory_path() / ("ai8xsim-dump-" + std::to_string(::getpid()));
    fs::create_directories(work);
    const std::string vec = AI8XSIM_SHARED_DIR "/vectors/demo-mnist-extrasmall";
    const fs::path diff_tool = fs::path(AI8XSIM_BINARY).parent_path() / "ai8xsim-layer-diff";
    REQUIRE(fs::exists(diff_tool));  // built by the ai8xsim-layer-diff target
    const fs::path out = work / "layers";

    REQUIRE(run(std::string(AI8XSIM_BINARY) + " run '" + vec + "' --dump-layers '" + out.string() + "' > '" +
                (work / "run.txt").string() + "' 2>&1") == 0);
    const fs::path layer0 = out / "layer_0.txt";
    REQUIRE(fs::exists(layer0));

    const std::string diff =
        diff_tool.string() + " '" + out.string() + "' '" + vec + "' > '" + (work / "diff.txt").string() + "' 2>&1";
    CHECK(run(diff) == 0);
    INFO(slurp(work / "diff.txt"));
    CHECK(slurp(work / "diff.txt").find("layer 0: OK") != std::string::npos);

    // Alter channel 0, row 1, column 2 of layer 0 (header, shape, "channel 0", row 0 precede it).
    std::istringstream lines(slurp(layer0));
    std::ostringstream changed;
    std::string line;
    for (int n = 0; std::getline(lines, line); ++n) {
        if (n == 4) {
            std::istringstream row(line);
            std::ostringstream rebuilt;
            long long v;
            for (int x = 0; row >> v; ++x) rebuilt << (x ? " " : "") << (x == 2 ? v + 1 : v);
            line = rebuilt.str();
        }
        changed << line << '\n';
    }
    std::ofstream(layer0) << changed.str();
    CHECK(run(diff) == 1);
    const std::string report = slurp(work / "diff.txt");
    INFO(report);
    CHECK(report.find("layer 0: MISMATCH at channel 0 row 1 column 2") != std::string::npos);
    fs::remove_all(work);
}
