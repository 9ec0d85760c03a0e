#include "bench/child_run.h"

#include <chrono>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ai8x::bench {

ChildRun run_child(const std::vector<std::string>& args) {
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ChildRun c;
    const auto t0 = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid < 0) return c;
    if (pid == 0) {
        const int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(null, 2);
        execv(argv[0], argv.data());
        _exit(127);
    }
    struct rusage ru {};
    int status = 0;
    if (wait4(pid, &status, 0, &ru) < 0) return c;
    c.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    c.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    c.maxrss_kb = ru.ru_maxrss;  // kilobytes on Linux
    return c;
}

}  // namespace ai8x::bench
