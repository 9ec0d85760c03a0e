// The four MAX78002 demos against the silicon figures of AN7664 ("Developing
// Power-Optimized Applications on the MAX78002", EV kit, inference only, CNN
// at 200 MHz with the pipeline): each whole-board run's cnn_cycles /
// cnn_clock_hz within 10 % (issue #17). The firmware selects the clock and
// leaves the pipeline on, so this checks the clock switch, the pipeline's
// detection and its cost together (docs/timing-model.md, "MAX78002").
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <sys/wait.h>

#include <nlohmann/json.hpp>

#include "testbench/unit/app/app_test_support.h"
#include "build_paths.h"

using namespace ai8x;
using namespace ai8x::test;
namespace fs = std::filesystem;

namespace {

// `ai8xsim run` as a child process (one SystemC design per process); its JSON.
nlohmann::json run_demo(const std::string& name, const fs::path& work) {
    const std::string dir = std::string(AI8XSIM_SHARED_DIR) + "/vectors-max78002/demo87-" + name;
    const fs::path out = work / (name + ".json");
    const std::string cmd = std::string("'") + AI8XSIM_BINARY + "' run '" + dir + "' --quiet --build-dir '" +
                            ai8x::test::firmware_cache() + "\' --json '" + out.string() + "'";
    const int status = std::system(cmd.c_str());
    const int rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    INFO(cmd << " -> exit " << rc);
    REQUIRE(rc == 0);
    return read_json(out.string());
}

void check_demo(const std::string& name, double silicon_ms) {
    const nlohmann::json j = run_demo(name, scratch("an7664"));
    const double hz = j.at("cnn_clock_hz").get<double>();
    const double ms = double(j.at("cnn_cycles").get<uint64_t>()) / hz * 1e3;
    std::printf("%-12s AN7664 %.2f ms, ours %.3f ms (%llu cycles at %.0f MHz), %+.1f %%\n", name.c_str(), silicon_ms,
                ms, (unsigned long long)j.at("cnn_cycles").get<uint64_t>(), hz / 1e6, 100 * (ms / silicon_ms - 1));
    CHECK(hz == 200e6);  // main() switches to PLL / 1 before cnn_start()
    CHECK(j.at("cnn_pipeline").get<bool>());
    CHECK(ms >= silicon_ms * 0.9);
    CHECK(ms <= silicon_ms * 1.1);
}

}  // namespace

TEST_CASE("AN7664: MAX78002 mnist inference time within 10 %", "[max78002][timing][vectors]") {
    check_demo("mnist", 0.41);
}
TEST_CASE("AN7664: MAX78002 cifar-10 inference time within 10 %", "[max78002][timing][vectors]") {
    check_demo("cifar-10", 1.32);
}
TEST_CASE("AN7664: MAX78002 kws20_v3_1 inference time within 10 %", "[max78002][timing][vectors]") {
    check_demo("kws20_v3_1", 0.40);
}
TEST_CASE("AN7664: MAX78002 cats-dogs inference time within 10 %", "[max78002][timing][vectors]") {
    check_demo("cats-dogs", 3.90);
}
