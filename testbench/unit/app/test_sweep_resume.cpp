// ai8xsim-sweep over time: a sweep killed with SIGKILL keeps every finished
// row (never a torn one) and takes its runs with it; --resume runs only the
// missing points and ends with the same table as an uninterrupted sweep; a
// run past --timeout leaves no process and no temporary file behind.
// Register addresses come from the device config and the vector's cnn.c.
#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include "model/registers/quadrant_registers.h"
#include "testbench/unit/app/app_test_support.h"
#include "testbench/unit/app/tool_test_support.h"
#include "tlm/device_config.h"
#include "build_paths.h"

using namespace ai8x;
using namespace ai8x::test;
namespace fs = std::filesystem;

namespace {

const std::string kResumeVector = std::string(AI8XSIM_SHARED_DIR) + "/vectors/demo-mnist-extrasmall";
constexpr unsigned kPoints = 12;

// A grid of kPoints over layer 0's output pointer (WPTR_BASE, bits 16:0): the
// generated value and kPoints-1 others, a few words apart (they fail the
// known-answer test, each with its own row).
std::string grid_arguments() {
    const DeviceConfig cfg = load_device_config(default_device_config_path());
    const uint32_t wptr = static_cast<uint32_t>(cfg.quadrant_regs.base + cfg.layer_register_offset +
                                                uint64_t{LREG_WPTR_BASE} * cfg.layer_register_stride);
    const auto writes = cnn_register_writes(kResumeVector);
    REQUIRE(writes.count(wptr) == 1);
    const uint32_t generated = writes.at(wptr) & 0x1FFFF;
    REQUIRE(generated + (kPoints - 1) * 0x40 <= 0x1FFFF);
    return fmt::format("--ai8xsim '{}' --build-dir '{}' --grid-field 0x{:08x}:16:0={}:{}:64", AI8XSIM_BINARY,
                       ai8x::test::firmware_cache(), wptr, generated, generated + (kPoints - 1) * 0x40);
}

// Starts the sweep as a child process (so the test can kill it), stderr to `log`.
pid_t start_sweep(const std::string& args, const fs::path& log) {
    const std::string cmd = std::string("exec '") + AI8XSIM_SWEEP_BINARY + "' " + args + " 2>'" + log.string() + "'";
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    return pid;
}

size_t complete_rows(const fs::path& csv) {
    const std::string text = slurp(csv);
    return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

// A sweep of two points over `vector` with --timeout 1: both runs time out,
// and nothing of them stays: no process mentioning `work`, nothing in the
// sweep's TMPDIR, no half-written file in the firmware cache.
void check_timeouts_leave_nothing(const fs::path& work, const std::string& vector, const std::string& env) {
    const fs::path tmp = work / "tmp", cache = work / "cache", csv = work / "out.csv";
    fs::create_directories(tmp);
    const ShellRun r = run_shell(
        fmt::format("{} TMPDIR='{}' '{}' '{}' -o '{}' --ai8xsim '{}' --build-dir '{}' --grid 0x50100010=1,2 "
                    "--timeout 1 -j 2",
                    env, tmp.string(), AI8XSIM_SWEEP_BINARY, vector, csv.string(), AI8XSIM_BINARY, cache.string()),
        work);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const auto rows = read_csv(csv);
    REQUIRE(rows.size() == 3);
    for (size_t i = 1; i < rows.size(); ++i) {
        REQUIRE(rows[i].size() == 7);
        CHECK(rows[i][1] == "ERROR");
        CHECK(rows[i][2].empty());  // no exit code: killed
        CHECK(std::stod(rows[i][6]) >= 1.0);
    }
    CHECK(r.err.find("timed out") != std::string::npos);

    check_nothing_left(work, tmp, {cache});
}

}  // namespace

TEST_CASE("sweep: killed mid-run keeps whole rows, and --resume completes it like an uninterrupted sweep",
          "[sweep][resume]") {
    const fs::path work = scratch("sweep-resume");
    const std::string grid = grid_arguments();
    const fs::path whole = work / "whole.csv", killed = work / "killed.csv";

    ShellRun r = run_shell(
        fmt::format("'{}' '{}' -o '{}' -j 2 {}", AI8XSIM_SWEEP_BINARY, kResumeVector, whole.string(), grid), work);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    REQUIRE(read_csv(whole).size() == kPoints + 1);

    // Kill it once a few rows are in (header + 3), well before the last point.
    const pid_t sweep =
        start_sweep(fmt::format("'{}' -o '{}' -j 2 {}", kResumeVector, killed.string(), grid), work / "killed.log");
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(5);
    while (complete_rows(killed) < 4 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    REQUIRE(kill(sweep, SIGKILL) == 0);
    int status = 0;
    REQUIRE(waitpid(sweep, &status, 0) == sweep);
    REQUIRE(WIFSIGNALED(status));

    // Every line complete, fewer than all points, each one of the whole run's rows.
    const std::string text = slurp(killed);
    REQUIRE(!text.empty());
    CHECK(text.back() == '\n');
    const auto partial = sweep_rows_without_wall(killed);
    const auto expected = sweep_rows_without_wall(whole);
    REQUIRE(partial.size() >= 4);
    REQUIRE(partial.size() < expected.size());
    CHECK(partial.front() == expected.front());
    for (size_t i = 1; i < partial.size(); ++i)
        CHECK(std::find(expected.begin() + 1, expected.end(), partial[i]) != expected.end());

    // The runs it had started die with it (PR_SET_PDEATHSIG), compilers included.
    const std::string scratch_dir = "ai8xsim-sweep-" + std::to_string(sweep);
    auto alive = live_processes_mentioning(scratch_dir);
    for (int i = 0; i < 200 && !alive.empty(); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        alive = live_processes_mentioning(scratch_dir);
    }
    CHECK(alive.empty());

    r = run_shell(
        fmt::format("'{}' '{}' -o '{}' -j 2 --resume {}", AI8XSIM_SWEEP_BINARY, kResumeVector, killed.string(), grid),
        work);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.err.find(fmt::format("{} already in", partial.size() - 1)) != std::string::npos);
    CHECK(sweep_rows_without_wall(killed) == expected);
    // The killed sweep's scratch folder went with the next sweep.
    CHECK_FALSE(fs::exists(fs::temp_directory_path() / scratch_dir));
    fs::remove_all(work);
}

TEST_CASE("sweep: --resume drops a torn last row and refuses another grid's file", "[sweep][resume]") {
    const fs::path work = scratch("sweep-torn");
    const std::string grid = grid_arguments();
    const fs::path csv = work / "out.csv";
    ShellRun r = run_shell(
        fmt::format("'{}' '{}' -o '{}' -j 2 {}", AI8XSIM_SWEEP_BINARY, kResumeVector, csv.string(), grid), work);
    REQUIRE(r.exit_code == 0);
    const auto expected = sweep_rows_without_wall(csv);
    auto lines = file_lines(csv);
    REQUIRE(lines.size() == kPoints + 1);

    // Header, two rows and half of a third, as a sweep killed inside write() might leave it.
    const std::string torn = lines[0] + "\n" + lines[1] + "\n" + lines[2] + "\n" + lines[3].substr(0, 5);
    std::ofstream(csv, std::ios::trunc) << torn;
    r = run_shell(
        fmt::format("'{}' '{}' -o '{}' -j 2 --resume {}", AI8XSIM_SWEEP_BINARY, kResumeVector, csv.string(), grid),
        work);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.err.find("2 already in") != std::string::npos);
    CHECK(sweep_rows_without_wall(csv) == expected);

    // Another grid (other header): exit 2 naming the file, which stays as it was.
    const std::string before = slurp(csv);
    r = run_shell(fmt::format("'{}' '{}' -o '{}' --resume --ai8xsim '{}' --grid 0x50100010=1", AI8XSIM_SWEEP_BINARY,
                              kResumeVector, csv.string(), AI8XSIM_BINARY),
                  work);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(csv.string()) != std::string::npos);
    CHECK(r.err.find("header") != std::string::npos);
    CHECK(slurp(csv) == before);
    fs::remove_all(work);
}

TEST_CASE("sweep: a run past --timeout leaves no process and no temporary file behind", "[sweep][timeout]") {
    const std::string hang = std::string(AI8XSIM_SOURCE_DIR) + "/firmware/examples/hang";
    SECTION("killed while compiling") {
        // A compiler that takes a minute (AI8XSIM_ARM_GCC, as the firmware
        // builder allows) and leaves a temporary file as compilers do: the
        // kill must reach it, its file and the builder's link folder.
        const fs::path work = scratch("sweep-timeout-build");
        const fs::path gcc = work / "slow-gcc";
        std::ofstream(gcc) << "#!/bin/sh\n: > \"${TMPDIR:-/tmp}/cc-partial.o\"\nsleep 60\n";
        fs::permissions(gcc, fs::perms::owner_all);
        check_timeouts_leave_nothing(work, hang, "AI8XSIM_ARM_GCC='" + gcc.string() + "'");
        fs::remove_all(work);
    }
    SECTION("killed while simulating") {
        // The firmware built beforehand (a run stopped by its simulated-time
        // limit), so the runs time out in the never-ending loop.
        const fs::path work = scratch("sweep-timeout-run");
        const ShellRun built = run_shell(fmt::format("'{}' run '{}' --quiet --timeout 1 --build-dir '{}'",
                                                     AI8XSIM_BINARY, hang, (work / "cache").string()),
                                         work);
        REQUIRE(built.exit_code == 3);
        check_timeouts_leave_nothing(work, hang, "");
        fs::remove_all(work);
    }
}
