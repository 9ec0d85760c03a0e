// Helpers shared by the libFuzzer harnesses (testbench/fuzz, docs/fuzzing.md).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <unistd.h>

namespace ai8x::fuzz {

// A property the harness checks does not hold: report and abort, which
// libFuzzer records as a crash with the input that caused it.
[[noreturn]] inline void fail(const std::string& what) {
    std::fprintf(stderr, "fuzz property violated: %s\n", what.c_str());
    std::abort();
}

// A fresh folder for files a harness needs beside its input (per process, so
// parallel fuzzing jobs do not share it); removed when the process exits.
inline std::string scratch_dir(const std::string& name) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("ai8xsim-fuzz-" + name + "-" + std::to_string(getpid()));
    fs::create_directories(dir);
    static std::string keep;
    keep = dir.string();
    std::atexit([] {
        std::error_code ec;
        fs::remove_all(keep, ec);
    });
    return dir.string();
}

}  // namespace ai8x::fuzz
