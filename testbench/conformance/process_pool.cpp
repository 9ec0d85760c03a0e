#include "testbench/conformance/process_pool.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <thread>

namespace ai8x::conformance {

namespace {

using Clock = std::chrono::steady_clock;

struct Running {
    std::size_t index;
    Clock::time_point start;
    bool killed = false;
};

// fork + exec with output redirected; returns the child's pid or -1.
pid_t spawn(const Job& job) {
    std::vector<char*> argv;
    for (const auto& a : job.argv) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const pid_t pid = fork();
    if (pid != 0) return pid;
    // Child: own process group so a time-out kills grandchildren (compilers) too.
    setpgid(0, 0);
    const int fd = open(job.log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        dup2(fd, STDOUT_FILENO);
        dup2(fd, STDERR_FILENO);
        close(fd);
    }
    execv(argv[0], argv.data());
    std::fprintf(stderr, "cannot execute %s: %s\n", argv[0], std::strerror(errno));
    _exit(127);
}

}  // namespace

void run_jobs(const std::vector<Job>& jobs, unsigned parallel, std::chrono::seconds limit,
              Clock::time_point start_deadline, const std::function<void(std::size_t, const JobOutcome&)>& on_done) {
    std::map<pid_t, Running> running;
    std::size_t next = 0;
    while (next < jobs.size() || !running.empty()) {
        while (next < jobs.size() && running.size() < parallel) {
            if (Clock::now() > start_deadline) {
                JobOutcome o;
                o.not_started = true;
                on_done(next++, o);
                continue;
            }
            const pid_t pid = spawn(jobs[next]);
            if (pid < 0) {
                JobOutcome o;
                o.spawn_failed = true;
                on_done(next, o);
            } else {
                setpgid(pid, pid);  // also from the parent, so a kill can never miss the group
                running.emplace(pid, Running{next, Clock::now()});
            }
            ++next;
        }
        int status = 0;
        const pid_t done = waitpid(-1, &status, WNOHANG);
        if (done > 0) {
            const auto it = running.find(done);
            if (it == running.end()) continue;
            JobOutcome o;
            o.wall_seconds = std::chrono::duration<double>(Clock::now() - it->second.start).count();
            o.timed_out = it->second.killed;
            if (WIFEXITED(status)) {
                o.exit_code = WEXITSTATUS(status);
            } else if (WIFSIGNALED(status) && !o.timed_out) {
                o.signalled = true;
                o.signal = WTERMSIG(status);
            }
            // Whatever the child left running in its group goes with it.
            kill(-done, SIGKILL);
            const std::size_t index = it->second.index;
            running.erase(it);
            on_done(index, o);
            continue;
        }
        for (auto& [pid, r] : running) {
            if (!r.killed && Clock::now() - r.start > limit) {
                kill(-pid, SIGKILL);
                r.killed = true;
            }
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

}  // namespace ai8x::conformance
