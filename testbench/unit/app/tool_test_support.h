// Helpers for the tests that run the project's programs (ai8xsim-sweep, the
// conformance runner, GNU parallel) as processes: shell commands with their
// exit code and output, CSV files, CSV rows without their wall-clock column,
// the processes still alive that mention a path, and what a killed run must
// not leave behind.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include "testbench/unit/test_support.h"

namespace ai8x::test {

struct ShellRun {
    int exit_code;
    std::string out, err;
};

// Runs `command` with /bin/sh, stdout and stderr captured through files in `work`.
inline ShellRun run_shell(const std::string& command, const std::filesystem::path& work) {
    const auto out = work / "shell-stdout.txt", err = work / "shell-stderr.txt";
    const std::string cmd = "(" + command + ") >'" + out.string() + "' 2>'" + err.string() + "'";
    const int status = std::system(cmd.c_str());
    REQUIRE(status != -1);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
}

inline std::string quoted(const std::string& s) { return "'" + s + "'"; }

// The lines of a file (the last one may lack its newline).
inline std::vector<std::string> file_lines(const std::filesystem::path& p) {
    std::ifstream in(p);
    REQUIRE(in);
    std::vector<std::string> lines;
    std::string line;
    while (std::getline(in, line)) lines.push_back(line);
    return lines;
}

inline std::vector<std::vector<std::string>> read_csv(const std::filesystem::path& p) {
    std::vector<std::vector<std::string>> rows;
    for (const auto& line : file_lines(p)) {
        std::vector<std::string> cells;
        std::string cell;
        std::istringstream s(line);
        while (std::getline(s, cell, ',')) cells.push_back(cell);
        if (!line.empty() && line.back() == ',') cells.emplace_back();
        rows.push_back(cells);
    }
    return rows;
}

// A sweep CSV without its last column (wall_s, the only one that measures the host).
inline std::vector<std::vector<std::string>> sweep_rows_without_wall(const std::filesystem::path& p) {
    auto rows = read_csv(p);
    for (auto& r : rows) {
        REQUIRE(!r.empty());
        REQUIRE((r.back() == "wall_s" || std::regex_match(r.back(), std::regex(R"(\d+\.\d{3})"))));
        r.pop_back();
    }
    return rows;
}

// The conformance runner's report with its wall_s column (a number with one
// decimal between the exit code and the cycles) blanked.
inline std::string conformance_report_without_wall(const std::string& report) {
    static const std::regex wall(R"((PASS|FAIL|TIMEOUT|CRASH|ERROR|NOT-RUN)( +\S+) +\d+\.\d )");
    return std::regex_replace(report, wall, "$1$2 WALL ");
}

// Processes other than zombies whose command line contains `text`.
inline std::vector<std::string> live_processes_mentioning(const std::string& text) {
    std::vector<std::string> found;
    for (const auto& e : std::filesystem::directory_iterator("/proc")) {
        const std::string pid = e.path().filename().string();
        if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
        std::string cmdline = slurp(e.path() / "cmdline");
        for (char& c : cmdline)
            if (c == '\0') c = ' ';
        const std::string stat = slurp(e.path() / "stat");
        const auto paren = stat.rfind(')');
        const bool zombie = paren != std::string::npos && paren + 2 < stat.size() && stat[paren + 2] == 'Z';
        if (!zombie && cmdline.find(text) != std::string::npos) found.push_back(pid + ": " + cmdline);
    }
    return found;
}

// What a killed run must not leave: anything in `tmp` (the TMPDIR its runner
// was given), a half-written NAME.tmp<pid> anywhere under `folders` (its
// firmware cache, its results), a process mentioning `work`. Processes get two
// seconds to go (the kernel delivers the kills).
inline void check_nothing_left(const std::filesystem::path& work, const std::filesystem::path& tmp,
                               const std::vector<std::filesystem::path>& folders) {
    CHECK(std::filesystem::is_empty(tmp));
    for (const auto& folder : folders)
        for (const auto& e : std::filesystem::recursive_directory_iterator(folder)) {
            INFO(e.path());
            CHECK(e.path().filename().string().find(".tmp") == std::string::npos);
        }
    auto alive = live_processes_mentioning(work.string());
    for (int i = 0; i < 200 && !alive.empty(); ++i) {
        usleep(10000);
        alive = live_processes_mentioning(work.string());
    }
    INFO((alive.empty() ? std::string() : alive.front()));
    CHECK(alive.empty());
}

}  // namespace ai8x::test
