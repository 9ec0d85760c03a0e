// Helpers shared by the `ai8xsim run` tests: scratch folders, run options that
// reuse the test binary's firmware cache, JSON files, the register writes of a
// vector's cnn.c. Catch's REQUIRE inside makes a missing file fail the test.
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "app/run_options.h"
#include "app/run_report.h"
#include "testbench/unit/test_support.h"
#include "build_paths.h"

namespace ai8x::test {

// Folder of the bundled example firmware `name` (firmware/examples/NAME).
inline std::string example_firmware(const std::string& name) {
    return std::string(AI8XSIM_SOURCE_DIR) + "/firmware/examples/" + name;
}

// A fresh folder under the temp directory, unique per test process.
inline std::filesystem::path scratch(const std::string& tag) {
    std::filesystem::path p =
        std::filesystem::temp_directory_path() / ("ai8xsim-test-" + tag + "-" + std::to_string(::getpid()));
    std::filesystem::create_directories(p);
    return p;
}

inline nlohmann::json read_json(const std::string& path) {
    std::ifstream in(path);
    REQUIRE(in);
    return nlohmann::json::parse(in);
}

// `report` as the JSON file `ai8xsim run --json` would write, read back.
inline nlohmann::json report_as_json(const RunReport& report) {
    const std::string path = (scratch("report") / "run.json").string();
    write_run_report(report, path);
    nlohmann::json j = read_json(path);
    std::remove(path.c_str());
    return j;
}

// Options for running the vector folder `dir` quietly with its JSON in `work`;
// firmware builds are cached next to the ai8xsim binary under test.
inline RunOptions run_options_for(const std::string& dir, const std::filesystem::path& work) {
    RunOptions o;
    o.vector_dir = dir;
    o.build_dir = ai8x::test::firmware_cache();
    o.json_out = (work / "result.json").string();
    o.quiet_console = true;
    return o;
}

// Every plain `*((volatile uint32_t *) ADDR) = VALUE;` of `vector_dir`/cnn.c,
// the last value per address.
inline std::map<uint32_t, uint32_t> cnn_register_writes(const std::string& vector_dir) {
    std::ifstream in(vector_dir + "/cnn.c");
    REQUIRE(in);
    static const std::regex write(R"(\*\(\(volatile uint32_t \*\) (0x[0-9a-fA-F]+)\) = (0x[0-9a-fA-F]+);)");
    std::map<uint32_t, uint32_t> out;
    std::string line;
    while (std::getline(in, line)) {
        std::smatch m;
        if (std::regex_search(line, m, write))
            out[static_cast<uint32_t>(std::stoul(m[1], nullptr, 16))] =
                static_cast<uint32_t>(std::stoul(m[2], nullptr, 16));
    }
    return out;
}

}  // namespace ai8x::test
