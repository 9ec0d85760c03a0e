#include "tlm/trace_number.h"

#include <array>
#include <limits>
#include <utility>

namespace ai8x {

namespace {

constexpr std::array<std::pair<std::string_view, uint64_t>, 5> kUnits{{
    {"s", 1'000'000'000'000ULL},
    {"ms", 1'000'000'000ULL},
    {"us", 1'000'000ULL},
    {"ns", 1'000ULL},
    {"ps", 1ULL},
}};

int digit_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

}  // namespace

std::optional<uint64_t> parse_number(std::string_view text) {
    unsigned base = 10;
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        base = 16;
        text.remove_prefix(2);
    }
    if (text.empty()) return std::nullopt;
    uint64_t value = 0;
    for (char c : text) {
        const int d = digit_value(c);
        if (d < 0 || static_cast<unsigned>(d) >= base) return std::nullopt;
        if (value > (std::numeric_limits<uint64_t>::max() - d) / base) return std::nullopt;
        value = value * base + d;
    }
    return value;
}

std::optional<uint64_t> parse_duration_ps(std::string_view text) {
    std::size_t digits = 0;
    while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
    if (digits == 0) return std::nullopt;
    const std::string_view unit = text.substr(digits);
    for (const auto& [name, scale] : kUnits) {
        if (unit != name) continue;
        const auto count = parse_number(text.substr(0, digits));
        if (!count || *count > std::numeric_limits<uint64_t>::max() / scale) return std::nullopt;
        return *count * scale;
    }
    return std::nullopt;
}

std::string format_duration_ps(uint64_t ps) {
    // The last unit (ps) divides everything, so the search always ends there.
    std::size_t i = 0;
    while (ps % kUnits[i].second != 0) ++i;
    return std::to_string(ps / kUnits[i].second) + std::string(kUnits[i].first);
}

}  // namespace ai8x
