// Determinism (docs/determinism.md): the same vector gives byte-identical run
// JSON apart from the wall-clock fields (wall_clock_fields()), layer dumps,
// bus traces, VCD and timeline, run after run and with several runs at once; the conformance
// runner's results do not depend on its -j, nor a run's on its --threads. Plain,
// FIFO and streaming vectors.
// Across build types: scripts/check-determinism.sh (CI: release vs ASan+UBSan).
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/run_report.h"
#include "testbench/unit/app/app_test_support.h"
#include "testbench/unit/app/tool_test_support.h"
#include "build_paths.h"

using namespace ai8x;
using namespace ai8x::test;
namespace fs = std::filesystem;

namespace {

using test::kVectors;
const std::vector<std::string> kDeterminismSample = {"demo-mnist-extrasmall", "t-test-fifo-hwc",
                                                     "t-test-fifostream-nonsquare-hwc"};

// `ai8xsim run` of `vector` with every output of interest under `out`, and
// any further options.
std::string run_command(const std::string& vector, const fs::path& out, const std::string& extra = "") {
    const std::string o = out.string();
    return fmt::format(
        "'{}' run '{}/{}' --quiet --build-dir '{}' --json '{}/run.json' --dump-layers '{}/layers' "
        "--trace-out '{}/trace.txt' --vcd '{}/waves.vcd' --timeline '{}/timeline.json'{}",
        AI8XSIM_BINARY, kVectors, vector, ai8x::test::firmware_cache(), o, o, o, o, o, extra);
}

// The run JSON without its wall-clock fields, each of which must be there.
nlohmann::json without_wall_clock(const fs::path& json) {
    nlohmann::json j = read_json(json.string());
    for (const auto& f : wall_clock_fields()) {
        INFO(f);
        REQUIRE(j.contains(f));
        j.erase(f);
    }
    return j;
}

// Every file below `dir` but the run JSON: relative path -> content.
std::map<std::string, std::string> output_files(const fs::path& dir) {
    std::map<std::string, std::string> files;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        if (e.is_regular_file() && e.path().filename() != "run.json")
            files[e.path().lexically_relative(dir).string()] = slurp(e.path());
    return files;
}

}  // namespace

TEST_CASE("determinism: the run JSON lists every wall-clock field it writes", "[determinism]") {
    RunReport report;
    report.result = "pass";
    report.inference_wall_seconds = 0.5;
    const nlohmann::json j = report_as_json(report);
    std::vector<std::string> wall;
    for (const auto& [key, value] : j.items())
        if (key.find("wall") != std::string::npos) wall.push_back(key);
    CHECK(wall == wall_clock_fields());
}

TEST_CASE("determinism: run JSON, layer dumps and traces are identical run after run and with runs at once",
          "[determinism]") {
    for (const auto& vector : kDeterminismSample) {
        DYNAMIC_SECTION(vector) {
            const fs::path work = scratch("determinism-" + vector);
            for (const char* run : {"alone", "first", "second"}) fs::create_directories(work / run);
            // One run alone, then two at the same time.
            ShellRun r = run_shell(run_command(vector, work / "alone"), work);
            INFO(r.err);
            REQUIRE(r.exit_code == 0);
            r = run_shell(run_command(vector, work / "first") + " & a=$!; " + run_command(vector, work / "second") +
                              " & b=$!; wait $a && wait $b",
                          work);
            REQUIRE(r.exit_code == 0);

            const nlohmann::json alone = without_wall_clock(work / "alone" / "run.json");
            CHECK(alone.value("result", "") == "pass");
            CHECK(without_wall_clock(work / "first" / "run.json") == alone);
            CHECK(without_wall_clock(work / "second" / "run.json") == alone);

            const auto files = output_files(work / "alone");
            for (const char* name : {"trace.txt", "waves.vcd", "timeline.json"}) {
                INFO(name);
                REQUIRE(files.count(name) == 1);
                CHECK_FALSE(files.at(name).empty());
            }
            const auto layer_files = std::count_if(files.begin(), files.end(), [](const auto& f) {
                return f.first.rfind("layers/", 0) == 0 && !f.second.empty();
            });
            CHECK(layer_files >= 1);
            CHECK(output_files(work / "first") == files);
            CHECK(output_files(work / "second") == files);
            fs::remove_all(work);
        }
    }
}

TEST_CASE("determinism: the conformance runner's results do not depend on -j", "[determinism][conformance]") {
    const fs::path work = scratch("determinism-jobs");
    std::string only;
    for (const auto& v : kDeterminismSample) only += " --only " + v;
    std::map<unsigned, ShellRun> reports;
    for (unsigned jobs : {1u, 3u}) {
        reports.emplace(jobs, run_shell(fmt::format("'{}' '{}' --ai8xsim '{}' --build-root '{}.fwcache-conformance' "
                                                    "-j {} --work-dir '{}'{}",
                                                    AI8XSIM_CONFORMANCE_BINARY, kVectors, AI8XSIM_BINARY,
                                                    AI8XSIM_BINARY, jobs, (work / std::to_string(jobs)).string(), only),
                                        work));
        INFO(reports.at(jobs).err);
        REQUIRE(reports.at(jobs).exit_code == 0);
    }
    CHECK(conformance_report_without_wall(reports.at(1).out) == conformance_report_without_wall(reports.at(3).out));
    for (const auto& v : kDeterminismSample) {
        INFO(v);
        CHECK(without_wall_clock(work / "1" / (v + ".json")) == without_wall_clock(work / "3" / (v + ".json")));
    }
    fs::remove_all(work);
}

TEST_CASE("determinism: run JSON, layer dumps and traces do not depend on --threads", "[determinism][threads]") {
    // Vectors whose large layers the engine shares between threads: a FIFO-fed
    // streaming network and two plain ones.
    for (const std::string vector : {"demo-cats-dogs", "demo-cifar-10", "demo-kws20_v3"}) {
        DYNAMIC_SECTION(vector) {
            const fs::path work = scratch("determinism-threads-" + vector);
            std::map<unsigned, fs::path> out;
            for (unsigned threads : {1u, 2u, 3u}) {
                out[threads] = work / std::to_string(threads);
                fs::create_directories(out[threads]);
                // -v debug: the engine says when it shares a layer.
                const ShellRun r =
                    run_shell(run_command(vector, out[threads], fmt::format(" --threads {} -v debug", threads)), work);
                INFO("--threads " << threads << "\n" << r.err);
                REQUIRE(r.exit_code == 0);
                const bool shared =
                    r.err.find("shared by " + std::to_string(threads) + " threads") != std::string::npos;
                CHECK(shared == (threads > 1));
            }
            const nlohmann::json one = without_wall_clock(out[1] / "run.json");
            CHECK(one.value("result", "") == "pass");
            const auto files = output_files(out[1]);
            CHECK(files.count("trace.txt") == 1);
            CHECK(std::count_if(files.begin(), files.end(),
                                [](const auto& f) { return f.first.rfind("layers/", 0) == 0; }) >= 1);
            for (unsigned threads : {2u, 3u}) {
                INFO("--threads " << threads << " against --threads 1");
                CHECK(without_wall_clock(out[threads] / "run.json") == one);
                CHECK(output_files(out[threads]) == files);
            }
            fs::remove_all(work);
        }
    }
}
