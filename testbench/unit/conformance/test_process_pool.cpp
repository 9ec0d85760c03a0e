// The process pool the sweep and the conformance runner share
// (tools/process_pool.h), on small shell jobs: a job past its limit is killed
// with what it started; a crash is told from a time-out; a job's own TMPDIR
// exists while it runs and is gone after; after a kill or a crash, and only
// then, the files it named NAME.tmp<its pid> are removed, one folder level
// deep; jobs past the start deadline never start; a job that cannot start is
// reported, not lost.
#include <catch2/catch.hpp>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <thread>

#include "testbench/unit/test_support.h"
#include "tools/process_pool.h"

using namespace ai8x::tools;
using ai8x::test::slurp;
namespace fs = std::filesystem;

namespace {

Job shell_job(const std::string& script, const fs::path& dir, const std::string& name) {
    Job job;
    job.argv = {"/bin/sh", "-c", script};
    job.log_path = (dir / (name + ".log")).string();
    return job;
}

std::map<std::size_t, JobOutcome> run_all(const std::vector<Job>& jobs, const PoolLimits& limits) {
    std::map<std::size_t, JobOutcome> outcomes;
    run_jobs(
        jobs.size(), [&](std::size_t i) { return jobs[i]; }, limits,
        [&](std::size_t i, const JobOutcome& o) {
            REQUIRE(outcomes.count(i) == 0);  // each job reported once
            outcomes[i] = o;
        });
    REQUIRE(outcomes.size() == jobs.size());
    return outcomes;
}

bool process_alive(pid_t pid) {
    // A process that is gone, or a zombie waiting for a parent that is not us.
    const std::string stat = slurp(fs::path("/proc") / std::to_string(pid) / "stat");
    const auto paren = stat.rfind(')');
    return paren != std::string::npos && paren + 2 < stat.size() && stat[paren + 2] != 'Z';
}

}  // namespace

TEST_CASE("process pool: a job past its limit is killed with everything it started", "[pool]") {
    const ai8x::test::ScratchDir scratch("pool-limit");
    const fs::path& dir = scratch.path;
    // Each job starts a grandchild and notes its pid; the first waits for it
    // (and is killed for its time), the second exits at once and leaves it
    // running: either way, the job's whole group goes.
    const fs::path waits = dir / "waits.pid", leaves = dir / "leaves.pid";
    PoolLimits limits;
    limits.parallel = 2;
    limits.seconds_per_job = 0.5;
    const auto outcomes = run_all({shell_job("sleep 60 & echo $! > '" + waits.string() + "'; wait", dir, "slow"),
                                   shell_job("sleep 60 & echo $! > '" + leaves.string() + "'; exit 3", dir, "quick")},
                                  limits);
    CHECK(outcomes.at(0).timed_out);
    CHECK_FALSE(outcomes.at(0).signalled);
    CHECK(outcomes.at(0).wall_seconds >= 0.5);
    CHECK(outcomes.at(0).wall_seconds < 30);
    CHECK(outcomes.at(1).exit_code == 3);
    CHECK_FALSE(outcomes.at(1).timed_out);
    for (const fs::path& pid_file : {waits, leaves}) {
        INFO(pid_file);
        const pid_t grandchild = std::stoi(slurp(pid_file));
        bool alive = process_alive(grandchild);
        for (int i = 0; i < 200 && alive; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
            alive = process_alive(grandchild);
        }
        CHECK_FALSE(alive);
    }
}

TEST_CASE("process pool: a crash is told from a time-out and from an exit code", "[pool]") {
    const ai8x::test::ScratchDir scratch("pool-crash");
    const fs::path& dir = scratch.path;
    PoolLimits limits;
    limits.seconds_per_job = 30;
    const auto outcomes =
        run_all({shell_job("kill -SEGV $$", dir, "crash"), shell_job("echo hello; exit 0", dir, "ok")}, limits);
    CHECK(outcomes.at(0).signalled);
    CHECK(outcomes.at(0).signal == SIGSEGV);
    CHECK_FALSE(outcomes.at(0).timed_out);
    CHECK(outcomes.at(1).exit_code == 0);
    CHECK_FALSE(outcomes.at(1).signalled);
    CHECK(slurp(dir / "ok.log") == "hello\n");  // the console goes to the job's log
}

TEST_CASE("process pool: a job's own TMPDIR exists while it runs and is gone after", "[pool]") {
    const ai8x::test::ScratchDir scratch("pool-tmpdir");
    const fs::path& dir = scratch.path;
    Job job = shell_job("echo \"$TMPDIR\"; test -d \"$TMPDIR\" && : > \"$TMPDIR/partial.o\"", dir, "tmp");
    job.tmp_dir = (dir / "job-tmp").string();
    const auto outcomes = run_all({job, shell_job("echo \"$TMPDIR\"", dir, "inherit")}, PoolLimits{});
    CHECK(outcomes.at(0).exit_code == 0);
    CHECK(slurp(dir / "tmp.log") == job.tmp_dir + "\n");
    CHECK_FALSE(fs::exists(job.tmp_dir));
    // A job given none keeps the runner's.
    const char* own = std::getenv("TMPDIR");
    CHECK(slurp(dir / "inherit.log") == std::string(own ? own : "") + "\n");
}

TEST_CASE("process pool: after a kill or a crash, and only then, the job's NAME.tmp<pid> files go", "[pool]") {
    const ai8x::test::ScratchDir scratch("pool-leftovers");
    const fs::path& dir = scratch.path;
    // Each job writes, under its own folder, files named after its pid as
    // ai8xsim does (beside a result, one level down in a cache, two levels
    // down), one named after another pid, and one ending in .tmp alone.
    auto job_writing = [&](const std::string& name, const std::string& then) {
        const fs::path out = dir / name;
        fs::create_directories(out / "entry" / "deeper");
        Job job = shell_job("cd '" + out.string() +
                                "' && : > run.json.tmp$$ && mkdir entry/link.tmp$$ && : > entry/firmware.elf.tmp$$ && "
                                ": > entry/deeper/x.tmp$$ && : > other.tmp1 && : > plain.tmp && " +
                                then,
                            dir, name);
        job.leftover_dirs = {out.string()};
        return job;
    };
    PoolLimits limits;
    limits.parallel = 3;
    limits.seconds_per_job = 1;
    const auto outcomes = run_all(
        {job_writing("killed", "sleep 60"), job_writing("crashed", "kill -ABRT $$"), job_writing("exited", "exit 1")},
        limits);
    REQUIRE(outcomes.at(0).timed_out);
    REQUIRE(outcomes.at(1).signalled);
    REQUIRE(outcomes.at(2).exit_code == 1);
    for (const std::string name : {"killed", "crashed"}) {
        INFO(name);
        const fs::path out = dir / name;
        std::vector<std::string> left;
        for (const auto& e : fs::recursive_directory_iterator(out)) left.push_back(fs::relative(e.path(), out));
        std::sort(left.begin(), left.end());
        // Two levels down is past where ai8xsim writes: not searched.
        const std::vector<std::string> expected = {"entry", "entry/deeper", "other.tmp1", "plain.tmp"};
        CHECK(left.size() == expected.size() + 1);
        CHECK(std::includes(left.begin(), left.end(), expected.begin(), expected.end()));
        CHECK(left.end() != std::find_if(left.begin(), left.end(),
                                         [](const std::string& f) { return f.rfind("entry/deeper/x.tmp", 0) == 0; }));
    }
    // A job that ended by itself may have left a file on purpose (or another
    // process may be writing it): nothing is removed.
    std::size_t kept = 0;
    for (const auto& e : fs::recursive_directory_iterator(dir / "exited"))
        kept += e.path().string().find(".tmp") != std::string::npos;
    CHECK(kept == 6);
}

TEST_CASE("process pool: no job starts after the start deadline, and one that cannot start is reported", "[pool]") {
    const ai8x::test::ScratchDir scratch("pool-deadline");
    const fs::path& dir = scratch.path;
    const fs::path marker = dir / "ran";
    PoolLimits late;
    late.start_deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    auto outcomes = run_all({shell_job(": > '" + marker.string() + "'", dir, "late")}, late);
    CHECK(outcomes.at(0).not_started);
    CHECK_FALSE(fs::exists(marker));

    // A TMPDIR that cannot be made (its parent is a file): no process, a reason.
    std::ofstream(dir / "a-file") << "x";
    Job blocked = shell_job(": > '" + marker.string() + "'", dir, "blocked");
    blocked.tmp_dir = (dir / "a-file" / "tmp").string();
    // A program that does not exist: the child reports it in its log, exit 127.
    Job missing;
    missing.argv = {(dir / "no-such-program").string()};
    missing.log_path = (dir / "missing.log").string();
    outcomes = run_all({blocked, missing}, PoolLimits{});
    CHECK(outcomes.at(0).spawn_failed);
    CHECK(outcomes.at(0).error.find(blocked.tmp_dir) != std::string::npos);
    CHECK_FALSE(fs::exists(marker));
    CHECK(outcomes.at(1).exit_code == 127);
    CHECK(slurp(dir / "missing.log").find("cannot execute") != std::string::npos);
}
