// Inputs the fuzz harnesses once crashed on (testbench/fuzz/regressions/HARNESS/,
// docs/fuzzing.md), for the unit tests that keep each bug fixed.
#pragma once

#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include "build_paths.h"

namespace ai8x::test {

inline std::string fuzz_regression_path(const std::string& harness, const std::string& name) {
    return std::string(AI8XSIM_SOURCE_DIR) + "/testbench/fuzz/regressions/" + harness + "/" + name;
}

inline std::vector<uint8_t> fuzz_regression_bytes(const std::string& harness, const std::string& name) {
    std::ifstream in(fuzz_regression_path(harness, name), std::ios::binary);
    REQUIRE(in);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline std::string fuzz_regression_text(const std::string& harness, const std::string& name) {
    const std::vector<uint8_t> bytes = fuzz_regression_bytes(harness, name);
    return std::string(bytes.begin(), bytes.end());
}

}  // namespace ai8x::test
