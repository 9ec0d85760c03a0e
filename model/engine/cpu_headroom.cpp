#include "model/engine/cpu_headroom.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <thread>
#include <utility>
#include <vector>

namespace ai8x {

CpuHeadroom::CpuHeadroom(std::string stat_path, std::chrono::milliseconds window)
    : path_(std::move(stat_path)), window_(window), cores_(std::max(1u, std::thread::hardware_concurrency())) {
    last_ = read();
    last_time_ = std::chrono::steady_clock::now();
}

CpuHeadroom::Counters CpuHeadroom::parse(const std::string& text) {
    Counters c;
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        std::istringstream words(line);
        std::string name;
        if (!(words >> name) || name != "cpu") continue;
        // user nice system idle iowait irq softirq steal [guest guest_nice]:
        // guest time is already inside user and nice, so only the first eight count.
        std::vector<uint64_t> v;
        uint64_t x = 0;
        while (v.size() < 8 && words >> x) v.push_back(x);
        if (v.size() < 4) return c;
        v.resize(8, 0);
        c.busy = v[0] + v[2] + v[5] + v[6] + v[7];
        for (uint64_t part : v) c.total += part;
        c.valid = true;
        return c;
    }
    return c;
}

bool CpuHeadroom::spare(const Counters& before, const Counters& after, unsigned cores, bool& known) {
    known = before.valid && after.valid && after.total > before.total && after.busy >= before.busy;
    if (!known) return false;
    // Busy cores over the window, out of `cores`: spare when at least half a core is left.
    const double busy_cores = double(after.busy - before.busy) / double(after.total - before.total) * cores;
    return cores - busy_cores >= 0.5;
}

CpuHeadroom::Counters CpuHeadroom::read() const {
    std::ifstream in(path_);
    if (!in) return {};
    std::ostringstream text;
    text << in.rdbuf();
    return parse(text.str());
}

void CpuHeadroom::sample() {
    const auto now = std::chrono::steady_clock::now();
    if (now - last_time_ < window_) return;
    const Counters current = read();
    bool known = false;
    const bool spare_now = spare(last_, current, cores_, known);
    if (!known) return;
    answer_.store(spare_now, std::memory_order_relaxed);
    last_ = current;
    last_time_ = now;
}

}  // namespace ai8x
