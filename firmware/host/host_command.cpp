#include "firmware/host/host_command.h"

#include <array>
#include <cstdio>
#include <stdexcept>
#include <sys/wait.h>

namespace ai8x {

std::string shell_quote(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

int run_host_command(const std::string& cmd, std::string& output) {
    // "e": close-on-exec, so a program started by another thread (parallel
    // builds in one process) does not hold this pipe open past our child.
    FILE* p = popen((cmd + " 2>&1").c_str(), "re");
    if (!p) throw std::runtime_error("cannot run: " + cmd);
    std::array<char, 4096> buf;
    size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) output.append(buf.data(), n);
    int status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace ai8x
