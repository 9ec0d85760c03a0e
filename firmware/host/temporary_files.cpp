#include "firmware/host/temporary_files.h"

#include <signal.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <vector>

namespace ai8x {

namespace fs = std::filesystem;

namespace {

// The N of NAME.tmp<N>, or -1 if `name` is not named so.
long temporary_pid(const std::string& name) {
    const auto at = name.rfind(".tmp");
    if (at == std::string::npos || at == 0 || at + 4 == name.size()) return -1;
    long pid = 0;
    for (std::size_t i = at + 4; i < name.size(); ++i) {
        if (name[i] < '0' || name[i] > '9' || pid > 1'000'000'000) return -1;
        pid = pid * 10 + (name[i] - '0');
    }
    return pid;
}

}  // namespace

bool process_runs(long pid) {
    // EPERM: it runs, as someone else.
    return pid > 0 && (kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM);
}

void remove_temporary_files(const std::string& dir, long pid) {
    auto sweep = [pid](const fs::path& folder, bool descend) {
        std::vector<fs::path> doomed, subfolders;
        std::error_code ec;
        for (fs::directory_iterator e(folder, ec), end; !ec && e != end; e.increment(ec)) {
            if (temporary_pid(e->path().filename().string()) == pid)
                doomed.push_back(e->path());
            else if (descend && e->is_directory(ec))
                subfolders.push_back(e->path());
        }
        for (const auto& p : doomed) fs::remove_all(p, ec);
        return subfolders;
    };
    for (const auto& sub : sweep(dir, true)) sweep(sub, false);
}

unsigned remove_abandoned_temporary_files(const std::string& dir, long min_age_seconds) {
    const auto now = fs::file_time_type::clock::now();
    std::vector<fs::path> doomed;
    std::error_code ec;
    for (fs::directory_iterator e(dir, ec), end; !ec && e != end; e.increment(ec)) {
        const long pid = temporary_pid(e->path().filename().string());
        if (pid < 0 || process_runs(pid)) continue;
        std::error_code ec2;
        const auto written = fs::last_write_time(e->path(), ec2);
        if (!ec2 && now - written >= std::chrono::seconds(min_age_seconds)) doomed.push_back(e->path());
    }
    unsigned removed = 0;
    for (const auto& p : doomed) removed += fs::remove_all(p, ec) > 0;
    return removed;
}

}  // namespace ai8x
