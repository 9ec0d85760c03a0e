#include "tools/process_pool.h"

#include "firmware/host/temporary_files.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <thread>

extern char** environ;

namespace ai8x::tools {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

struct Running {
    std::size_t index;
    Job job;  // for the clean-up after it ends
    Clock::time_point start;
    bool killed = false;
};

// Everything the child needs is prepared before fork(): after it, the child
// only calls what is safe in a child of a (possibly threaded) process.
struct Launch {
    std::vector<std::string> args, env;
    std::vector<char*> argv, envp;
    explicit Launch(const Job& job) : args(job.argv) {
        for (char** e = environ; *e; ++e)
            if (job.tmp_dir.empty() || std::strncmp(*e, "TMPDIR=", 7) != 0) env.emplace_back(*e);
        if (!job.tmp_dir.empty()) env.push_back("TMPDIR=" + job.tmp_dir);
        for (auto& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        for (auto& e : env) envp.push_back(e.data());
        envp.push_back(nullptr);
    }
};

// fork + exec, console to the job's log; the child's pid, or -1 with `error` set.
pid_t spawn(const Job& job, std::string& error) {
    if (!job.tmp_dir.empty()) {
        std::error_code ec;
        fs::create_directories(job.tmp_dir, ec);
        if (ec) {
            error = "cannot create " + job.tmp_dir + ": " + ec.message();
            return -1;
        }
    }
    Launch launch(job);
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid < 0) {
        error = std::string("cannot start ") + job.argv.front() + ": " + std::strerror(errno);
        return -1;
    }
    if (pid > 0) {
        setpgid(pid, pid);  // also from the parent, so that a kill can never miss the group
        return pid;
    }
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);  // the runner died before prctl took effect
    setpgid(0, 0);
    const int fd = open(job.log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        dup2(fd, STDOUT_FILENO);
        dup2(fd, STDERR_FILENO);
        close(fd);
    }
    execve(launch.argv[0], launch.argv.data(), launch.envp.data());
    std::fprintf(stderr, "cannot execute %s: %s\n", launch.argv[0], std::strerror(errno));
    _exit(127);
}

// After the child ended: its group goes (anything it left running), and with
// it whatever it could not clean up itself.
void clean_up(const Job& job, pid_t pid, const JobOutcome& outcome) {
    kill(-pid, SIGKILL);
    if (outcome.timed_out || outcome.signalled)
        for (const auto& dir : job.leftover_dirs) ai8x::remove_temporary_files(dir, pid);
    if (!job.tmp_dir.empty()) {
        std::error_code ec;
        fs::remove_all(job.tmp_dir, ec);
    }
}

JobOutcome outcome_of(int status, const Running& r) {
    JobOutcome o;
    o.wall_seconds = std::chrono::duration<double>(Clock::now() - r.start).count();
    o.timed_out = r.killed;
    if (WIFEXITED(status)) {
        o.exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status) && !o.timed_out) {
        o.signalled = true;
        o.signal = WTERMSIG(status);
    }
    return o;
}

}  // namespace

void run_jobs(std::size_t count, const std::function<Job(std::size_t)>& job_at, const PoolLimits& limits,
              const std::function<void(std::size_t, const JobOutcome&)>& on_done) {
    std::map<pid_t, Running> running;
    const auto limit = std::chrono::duration<double>(limits.seconds_per_job);
    std::size_t next = 0;
    while (next < count || !running.empty()) {
        while (next < count && running.size() < std::max(1u, limits.parallel)) {
            JobOutcome o;
            if (Clock::now() > limits.start_deadline) {
                o.not_started = true;
                on_done(next++, o);
                continue;
            }
            Job job = job_at(next);
            const pid_t pid = spawn(job, o.error);
            if (pid < 0) {
                o.spawn_failed = true;
                on_done(next, o);
            } else {
                running.emplace(pid, Running{next, std::move(job), Clock::now()});
            }
            ++next;
        }
        int status = 0;
        const pid_t done = waitpid(-1, &status, WNOHANG);
        if (done > 0) {
            const auto it = running.find(done);
            if (it == running.end()) continue;
            const JobOutcome o = outcome_of(status, it->second);
            const std::size_t index = it->second.index;
            clean_up(it->second.job, done, o);
            running.erase(it);
            on_done(index, o);
            continue;
        }
        for (auto& [pid, r] : running) {
            if (!r.killed && limits.seconds_per_job > 0 && Clock::now() - r.start > limit) {
                kill(-pid, SIGKILL);  // the run and everything it started; reaped on a later pass
                r.killed = true;
            }
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

}  // namespace ai8x::tools
