#include "app/memory_occupancy.h"

#include "model/accel_state.h"

namespace ai8x {

namespace {

void add_instances(const char* name, const InstanceTable<std::vector<uint8_t>>& written,
                   const std::vector<std::string>& names, std::vector<RunReport::MemoryUse>& out) {
    for (size_t g = 0; g < written.size(); ++g) {
        RunReport::MemoryUse u;
        u.memory = name;
        u.instance = int(g);
        u.name = g < names.size() ? names[g] : "";
        u.words = uint32_t(written[g].size());
        // Merge runs of written words into one [first, last] range each.
        for (uint32_t w = 0; w < u.words; ++w) {
            if (!written[g][w]) continue;
            ++u.used;
            if (!u.ranges.empty() && u.ranges.back().second + 1 == w)
                u.ranges.back().second = w;
            else
                u.ranges.emplace_back(w, w);
        }
        out.push_back(std::move(u));
    }
}

}  // namespace

std::vector<RunReport::MemoryUse> memory_occupancy(const AcceleratorState& state) {
    std::vector<RunReport::MemoryUse> out;
    add_instances("data_sram", state.data_written, state.names.data_sram, out);
    add_instances("kernel", state.kernel_written, state.names.kernel, out);
    add_instances("bias", state.bias_written, state.names.bias, out);
    return out;
}

void keep_fuller_occupancy(std::vector<RunReport::MemoryUse>& kept, std::vector<RunReport::MemoryUse> now) {
    if (kept.size() != now.size()) {
        kept = std::move(now);
        return;
    }
    for (size_t i = 0; i < kept.size(); ++i)
        if (now[i].used > kept[i].used) kept[i] = std::move(now[i]);
}

}  // namespace ai8x
