#include "tlm/repeated_warnings.h"

#include <spdlog/spdlog.h>

namespace ai8x {

void RepeatedWarnings::warn(const std::string& kind, const std::string& message) {
    const auto [it, first] = counts_.try_emplace(kind, 0);
    ++it->second;
    if (first) {
        order_.push_back(kind);
        spdlog::warn("{}", message);
    } else {
        spdlog::debug("{}", message);
    }
}

uint64_t RepeatedWarnings::count(const std::string& kind) const {
    const auto it = counts_.find(kind);
    return it == counts_.end() ? 0 : it->second;
}

RepeatedWarnings::~RepeatedWarnings() {
    for (const std::string& kind : order_)
        if (const uint64_t repeats = counts_[kind] - 1; repeats > 0)
            spdlog::warn("{}: {}: {} more time(s) after the first, not printed (each under -v debug)", owner_, kind,
                         repeats);
}

}  // namespace ai8x
