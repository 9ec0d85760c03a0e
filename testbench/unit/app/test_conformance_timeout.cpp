// The conformance runner's --timeout, like the sweep's: a vector whose run is
// killed for its time counts as TIMEOUT, and nothing of the run stays behind
// (no process, no file in a TMPDIR, no half-written file in the firmware cache
// or beside the results), whether it was compiling or simulating. A runner
// killed outright takes its runs with it.
#include <catch2/catch.hpp>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include "testbench/unit/app/app_test_support.h"
#include "testbench/unit/app/tool_test_support.h"
#include "build_paths.h"

// A namespace of its own: in a unity build, a using-directive at file scope
// would reach the test files compiled after this one.
namespace conformance_timeout_test {

using namespace ai8x::test;
namespace fs = std::filesystem;

const char* const kHangVectors[] = {"hang-a", "hang-b"};

// A folder of two vectors that never finish (firmware/examples/hang with a
// meta.json each, which is all the runner's catalog needs).
fs::path hang_vectors(const fs::path& work) {
    const fs::path vectors = work / "vectors";
    for (const char* name : kHangVectors) {
        fs::create_directories(vectors / name);
        fs::copy_file(fs::path(AI8XSIM_SOURCE_DIR) / "firmware/examples/hang/main.c", vectors / name / "main.c");
        std::ofstream(vectors / name / "meta.json") << "{}\n";
    }
    return vectors;
}

// Both vectors run at once with --timeout 1 and time out; nothing of them stays.
void check_conformance_timeouts_leave_nothing(const fs::path& work, const std::string& env) {
    const fs::path tmp = work / "tmp", cache = work / "cache", results = work / "results";
    fs::create_directories(tmp);
    fs::create_directories(cache);
    const ShellRun r =
        run_shell(fmt::format("{} TMPDIR='{}' '{}' '{}' --ai8xsim '{}' --build-root '{}' --work-dir '{}' "
                              "--timeout 1 -j 2",
                              env, tmp.string(), AI8XSIM_CONFORMANCE_BINARY, (work / "vectors").string(),
                              AI8XSIM_BINARY, cache.string(), results.string()),
                  work);
    INFO(r.out + r.err);
    CHECK(r.exit_code == 1);
    CHECK(r.out.find("0 passed, 2 failed") != std::string::npos);
    for (const char* name : kHangVectors) {
        CHECK(r.err.find(fmt::format("TIMEOUT {}", name)) != std::string::npos);
        CHECK_FALSE(fs::exists(results / fmt::format("{}-tmp", name)));  // the run's own TMPDIR
    }
    check_nothing_left(work, tmp, {cache, results});
}

// Builds each hang vector's firmware into its folder of the build root `cache`
// (a run stopped by its simulated-time limit), so that runs simulate at once.
void prebuild(const fs::path& work, const fs::path& vectors, const fs::path& cache) {
    for (const char* name : kHangVectors) {
        const ShellRun built =
            run_shell(fmt::format("'{}' run '{}' --quiet --timeout 1 --build-dir '{}'", AI8XSIM_BINARY,
                                  (vectors / name).string(), (cache / name).string()),
                      work);
        REQUIRE(built.exit_code == 3);
    }
}

// The `ai8xsim run` processes of the vectors in `vectors` that are alive.
std::vector<std::string> live_runs(const fs::path& vectors) {
    std::vector<std::string> runs;
    for (const auto& p : live_processes_mentioning(vectors.string()))
        if (p.find(" run ") != std::string::npos) runs.push_back(p);
    return runs;
}

TEST_CASE("conformance: a vector past --timeout leaves no process and no temporary file behind",
          "[conformance][timeout]") {
    SECTION("killed while compiling") {
        // A compiler that takes a minute and leaves a temporary file where
        // compilers do ($TMPDIR, the run's own folder): the kill must reach
        // it, and its file and the builder's link folder must go.
        const fs::path work = scratch("conformance-timeout-build");
        hang_vectors(work);
        const fs::path gcc = work / "slow-gcc";
        std::ofstream(gcc) << "#!/bin/sh\n: > \"${TMPDIR:-/tmp}/cc-partial.o\"\nsleep 60\n";
        fs::permissions(gcc, fs::perms::owner_all);
        check_conformance_timeouts_leave_nothing(work, "AI8XSIM_ARM_GCC='" + gcc.string() + "'");
        fs::remove_all(work);
    }
    SECTION("killed while simulating") {
        // Each vector's firmware built beforehand into its folder of the
        // build root (a run stopped by its simulated-time limit).
        const fs::path work = scratch("conformance-timeout-run");
        prebuild(work, hang_vectors(work), work / "cache");
        check_conformance_timeouts_leave_nothing(work, "");
        fs::remove_all(work);
    }
}

TEST_CASE("conformance: a runner killed outright takes its runs with it", "[conformance][timeout]") {
    const fs::path work = scratch("conformance-killed");
    const fs::path vectors = hang_vectors(work), cache = work / "cache", results = work / "results";
    prebuild(work, vectors, cache);
    const std::vector<std::string> args = {AI8XSIM_CONFORMANCE_BINARY,
                                           vectors.string(),
                                           "--ai8xsim",
                                           AI8XSIM_BINARY,
                                           "--build-root",
                                           cache.string(),
                                           "--work-dir",
                                           results.string(),
                                           "--timeout",
                                           "600",
                                           "-j",
                                           "2"};
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const pid_t runner = fork();
    REQUIRE(runner >= 0);
    if (runner == 0) {
        freopen("/dev/null", "w", stdout);
        freopen("/dev/null", "w", stderr);
        execv(argv[0], argv.data());
        _exit(127);
    }
    // Both runs simulating (they never end), then SIGKILL: the runner can do
    // nothing more; the kernel kills its runs (PR_SET_PDEATHSIG).
    for (int i = 0; i < 6000 && live_runs(vectors).size() < 2; ++i) usleep(10000);
    REQUIRE(live_runs(vectors).size() == 2);
    REQUIRE(kill(runner, SIGKILL) == 0);
    int status = 0;
    REQUIRE(waitpid(runner, &status, 0) == runner);
    auto alive = live_runs(vectors);
    for (int i = 0; i < 200 && !alive.empty(); ++i) {
        usleep(10000);
        alive = live_runs(vectors);
    }
    INFO((alive.empty() ? std::string() : alive.front()));
    CHECK(alive.empty());
    // No vector finished, so none is in the results file: --resume runs both.
    CHECK(file_lines(results / "results.jsonl").size() == 1);
    fs::remove_all(work);
}

TEST_CASE("conformance: a vector whose run cannot start is an ERROR with the reason", "[conformance][timeout]") {
    // Its TMPDIR cannot be made: a file has the folder's name.
    const fs::path work = scratch("conformance-no-start");
    const fs::path vectors = hang_vectors(work), results = work / "results";
    fs::create_directories(results);
    std::ofstream(results / "hang-a-tmp") << "in the way\n";
    const ShellRun r = run_shell(fmt::format("'{}' '{}' --ai8xsim '{}' --build-root '{}' --work-dir '{}' --only hang-a",
                                             AI8XSIM_CONFORMANCE_BINARY, vectors.string(), AI8XSIM_BINARY,
                                             (work / "cache").string(), results.string()),
                                 work);
    INFO(r.out + r.err);
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("ERROR   hang-a") != std::string::npos);
    CHECK(r.err.find("ai8xsim-conformance: hang-a: cannot create " + (results / "hang-a-tmp").string()) !=
          std::string::npos);
    CHECK(r.out.find("0 passed, 1 failed") != std::string::npos);
    fs::remove_all(work);
}

}  // namespace conformance_timeout_test
