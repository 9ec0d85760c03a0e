#include "tools/sweep_grid.h"

#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>

namespace ai8x::sweep {

namespace fs = std::filesystem;

std::optional<uint32_t> parse_u32(const std::string& text) {
    if (text.empty()) return std::nullopt;
    try {
        size_t used = 0;
        const unsigned long long v = std::stoull(text, &used, 0);
        if (used != text.size() || v > 0xFFFFFFFFull || text[0] == '-') return std::nullopt;
        return static_cast<uint32_t>(v);
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

namespace {

uint32_t need_u32(const std::string& text, const std::string& option, const std::string& arg) {
    const auto v = parse_u32(text);
    if (!v) throw UsageError(option + " '" + arg + "': '" + text + "' is not a 32-bit number (hex 0x.. or decimal)");
    return *v;
}

std::vector<std::string> split(const std::string& text, char sep) {
    std::vector<std::string> out;
    std::string part;
    std::istringstream in(text);
    while (std::getline(in, part, sep)) out.push_back(part);
    if (!text.empty() && text.back() == sep) out.emplace_back();
    return out;
}

// "V1,V2,..." or "START:END:STEP" (END inclusive).
std::vector<uint32_t> parse_values(const std::string& text, const std::string& option, const std::string& arg) {
    std::vector<uint32_t> values;
    if (text.find(':') != std::string::npos) {
        const auto parts = split(text, ':');
        if (parts.size() != 3) throw UsageError(option + " '" + arg + "': a range is START:END:STEP");
        const uint64_t start = need_u32(parts[0], option, arg), end = need_u32(parts[1], option, arg);
        const uint64_t step = need_u32(parts[2], option, arg);
        if (step == 0 || end < start)
            throw UsageError(option + " '" + arg + "': a range needs STEP > 0 and END >= START");
        if ((end - start) / step + 1 > kMaxGridPoints)
            throw UsageError(option + " '" + arg + "': " + std::to_string((end - start) / step + 1) +
                             " values, more than a sweep runs (" + std::to_string(kMaxGridPoints) + ")");
        for (uint64_t v = start; v <= end; v += step) values.push_back(static_cast<uint32_t>(v));
    } else {
        for (const std::string& v : split(text, ',')) values.push_back(need_u32(v, option, arg));
    }
    if (values.empty()) throw UsageError(option + " '" + arg + "': no values");
    return values;
}

}  // namespace

std::map<uint32_t, uint32_t> generated_writes(const fs::path& cnn_c) {
    std::ifstream in(cnn_c);
    if (!in) throw UsageError("cannot read " + cnn_c.string() + " (needed by --grid-field)");
    static const std::regex write(
        R"(\*\(\(volatile uint32_t \*\)\s*(0x[0-9a-fA-F]+)\)\s*=\s*(0x[0-9a-fA-F]+|[0-9]+)\s*;)");
    std::map<uint32_t, uint32_t> out;
    std::string line;
    while (std::getline(in, line)) {
        std::smatch m;
        if (std::regex_search(line, m, write)) out[*parse_u32(m[1])] = *parse_u32(m[2]);
    }
    return out;
}

namespace {

std::vector<uint32_t> parse_addresses(const std::string& text, const std::string& option, const std::string& arg) {
    std::vector<uint32_t> out;
    for (const std::string& a : split(text, '+')) out.push_back(need_u32(a, option, arg));
    if (out.empty()) throw UsageError(option + " '" + arg + "': no address");
    return out;
}

std::pair<unsigned, unsigned> parse_bits(const std::string& hi, const std::string& lo, const std::string& option,
                                         const std::string& arg) {
    const uint32_t h = need_u32(hi, option, arg), l = need_u32(lo, option, arg);
    if (h > 31 || l > h) throw UsageError(option + " '" + arg + "': bits HI:LO need 31 >= HI >= LO");
    return {h, l};
}

}  // namespace

std::pair<std::string, Field> parse_field_def(const std::string& def) {
    const auto eq = def.find('=');
    const auto parts = split(eq == std::string::npos ? std::string() : def.substr(eq + 1), ':');
    if (eq == 0 || eq == std::string::npos || parts.size() != 3)
        throw UsageError("--field '" + def + "': expected NAME=ADDR[+ADDR..]:HI:LO");
    const auto [hi, lo] = parse_bits(parts[1], parts[2], "--field", def);
    return {def.substr(0, eq), Field{parse_addresses(parts[0], "--field", def), hi, lo}};
}

Axis parse_grid(const std::string& arg) {
    const auto eq = arg.find('=');
    if (eq == std::string::npos)
        throw UsageError("--grid '" + arg + "': expected ADDR=V1,V2,... or ADDR=START:END:STEP");
    Axis axis;
    axis.label = arg.substr(0, eq);
    axis.addresses = parse_addresses(arg.substr(0, eq), "--grid", arg);
    axis.values = parse_values(arg.substr(eq + 1), "--grid", arg);
    return axis;
}

Axis parse_grid_field(const std::string& arg, const std::map<std::string, Field>& named) {
    const auto eq = arg.find('=');
    if (eq == std::string::npos)
        throw UsageError("--grid-field '" + arg + "': expected ADDR:HI:LO=V1,V2,... or NAME=... (NAME from --field)");
    Axis axis;
    axis.label = arg.substr(0, eq);
    const auto it = named.find(axis.label);
    if (it != named.end()) {
        axis.addresses = it->second.addresses;
        axis.bits = std::make_pair(it->second.hi, it->second.lo);
    } else {
        const auto parts = split(axis.label, ':');
        if (parts.size() != 3)
            throw UsageError("--grid-field '" + arg + "': '" + axis.label +
                             "' is neither ADDR:HI:LO nor a --field name");
        axis.addresses = parse_addresses(parts[0], "--grid-field", arg);
        axis.bits = parse_bits(parts[1], parts[2], "--grid-field", arg);
    }
    axis.values = parse_values(arg.substr(eq + 1), "--grid-field", arg);
    const unsigned width = axis.bits->first - axis.bits->second + 1;
    for (uint32_t v : axis.values)
        if (width < 32 && v >> width)
            throw UsageError("--grid-field '" + arg + "': value " + std::to_string(v) + " does not fit in " +
                             std::to_string(width) + " bits");
    return axis;
}

std::string hex(uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", v);
    return buf;
}

std::string axis_cell(const Axis& axis, size_t value_index) {
    const uint32_t v = axis.values[value_index];
    return axis.bits ? std::to_string(v) : hex(v);
}

std::vector<std::pair<uint32_t, uint32_t>> point_overrides(const std::vector<Axis>& axes,
                                                           const std::vector<size_t>& index,
                                                           const std::map<uint32_t, uint32_t>& generated) {
    std::vector<std::pair<uint32_t, uint32_t>> sets;
    auto slot = [&](uint32_t addr) -> uint32_t& {
        for (auto& s : sets)
            if (s.first == addr) return s.second;
        const auto g = generated.find(addr);
        sets.emplace_back(addr, g == generated.end() ? 0u : g->second);
        return sets.back().second;
    };
    for (size_t a = 0; a < axes.size(); ++a) {
        const uint32_t v = axes[a].values[index[a]];
        for (uint32_t addr : axes[a].addresses) {
            uint32_t& reg = slot(addr);
            if (!axes[a].bits) {
                reg = v;
            } else {
                const auto [hi, lo] = *axes[a].bits;
                const uint32_t mask = static_cast<uint32_t>(((uint64_t{1} << (hi - lo + 1)) - 1) << lo);
                reg = (reg & ~mask) | ((v << lo) & mask);
            }
        }
    }
    return sets;
}

std::vector<std::vector<size_t>> grid_points(const std::vector<Axis>& axes) {
    std::vector<std::vector<size_t>> points;
    std::vector<size_t> index(axes.size(), 0);
    for (;;) {
        points.push_back(index);
        size_t a = axes.size();
        while (a > 0 && ++index[a - 1] == axes[a - 1].values.size()) index[--a] = 0;
        if (a == 0) break;
    }
    return points;
}

void check_grid_size(const std::vector<Axis>& axes) {
    uint64_t points = 1;
    for (const Axis& a : axes) {
        points *= a.values.size();  // each factor <= kMaxGridPoints: no overflow before the check
        if (points > kMaxGridPoints)
            throw UsageError("the grid has more than " + std::to_string(kMaxGridPoints) +
                             " points (the product of the axes' value counts); sweep fewer values");
    }
}

}  // namespace ai8x::sweep
