// ai8xsim-sweep: runs `ai8xsim run DIR --set ADDR=VALUE ...` for every point of
// a grid of register overrides, in parallel, and writes one CSV row per point.
// Used to explore parameters (e.g. streaming start/delta values) without
// regenerating the firmware. See README.md "Exploring streaming parameters".
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

extern char** environ;

namespace fs = std::filesystem;

namespace {

// Argument or input errors: reported with the offending text, exit code 2.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A 32-bit number, hex (0x...) or decimal; nothing if `text` is anything else.
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

// Each point is a whole simulation (a second or more): a range or grid larger
// than this is a typing mistake (0:0xffffffff:1 found by fuzz_arguments), to be
// refused before listing its points takes gigabytes.
constexpr uint64_t kMaxGridPoints = 1'000'000;

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

// Every `*((volatile uint32_t *) ADDR) = VALUE;` of the generated cnn.c, last value per address.
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

struct Field {
    std::vector<uint32_t> addresses;
    unsigned hi, lo;
};

// One grid axis: each of `values` is written to every address of `addresses`,
// either as the whole register or (field axis) into bits hi:lo of the value the
// firmware writes there, keeping its other bits.
struct Axis {
    std::string label;
    std::vector<uint32_t> addresses;
    std::optional<std::pair<unsigned, unsigned>> bits;  // hi, lo
    std::vector<uint32_t> values;
};

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

// "ADDR[+ADDR...]:HI:LO=VALUES" or "NAME=VALUES" with NAME from --field.
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

// The grid's point count (the product of the axes' sizes) must stay within kMaxGridPoints.
void check_grid_size(const std::vector<Axis>& axes) {
    uint64_t points = 1;
    for (const Axis& a : axes) {
        points *= a.values.size();  // each factor <= kMaxGridPoints: no overflow before the check
        if (points > kMaxGridPoints)
            throw UsageError("the grid has more than " + std::to_string(kMaxGridPoints) +
                             " points (the product of the axes' value counts); sweep fewer values");
    }
}

std::string hex(uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", v);
    return buf;
}

// The --set list of one grid point (axes applied in order, later ones win on shared bits).
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

struct Point {
    std::vector<size_t> index;
    std::vector<std::pair<uint32_t, uint32_t>> sets;
    fs::path json, log;
    pid_t pid = -1;
    std::chrono::steady_clock::time_point started;
    double wall = 0;
    int exit_code = -1;
    bool timed_out = false;
    bool spawn_failed = false;
};

void spawn(Point& p, const std::string& ai8xsim, const fs::path& dir) {
    std::vector<std::string> args = {ai8xsim, "run", dir.string()};
    for (const auto& [addr, value] : p.sets) {
        args.push_back("--set");
        args.push_back(hex(addr) + "=" + hex(value));
    }
    args.push_back("--json");
    args.push_back(p.json.string());
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);

    // The simulator's console output goes to a per-point log, so the sweep's
    // stderr shows only progress.
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, p.log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    p.started = std::chrono::steady_clock::now();
    const int err = posix_spawn(&p.pid, ai8xsim.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (err != 0) {
        p.spawn_failed = true;
        p.pid = -1;
        std::cerr << "ai8xsim-sweep: cannot start " << ai8xsim << ": " << std::strerror(err) << "\n";
    }
}

// Runs points [begin, end) with at most `jobs` at once; `timeout` seconds per point (0 = none).
void run_points(std::vector<Point>& points, size_t begin, size_t end, unsigned jobs, double timeout,
                const std::string& ai8xsim, const fs::path& dir, size_t& finished) {
    size_t next = begin;
    std::vector<Point*> running;
    while (next < end || !running.empty()) {
        while (next < end && running.size() < jobs) {
            Point& p = points[next++];
            spawn(p, ai8xsim, dir);
            if (p.pid > 0)
                running.push_back(&p);
            else
                ++finished;
        }
        bool reaped = false;
        for (auto it = running.begin(); it != running.end();) {
            Point& p = **it;
            int status = 0;
            const pid_t r = waitpid(p.pid, &status, WNOHANG);
            const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - p.started).count();
            if (r == 0 && timeout > 0 && wall > timeout && !p.timed_out) {
                p.timed_out = true;
                kill(p.pid, SIGKILL);  // reaped on a later pass
            }
            if (r == p.pid || (r < 0 && errno == ECHILD)) {
                p.wall = wall;
                p.exit_code = r == p.pid && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
                ++finished;
                std::cerr << "[" << finished << "/" << points.size() << "] point " << (&p - points.data()) + 1
                          << (p.timed_out ? " timed out" : " exit " + std::to_string(p.exit_code)) << " (" << p.wall
                          << " s)\n";
                it = running.erase(it);
                reaped = true;
            } else {
                ++it;
            }
        }
        if (!reaped) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

std::string csv_row(const Point& p, const std::vector<Axis>& axes) {
    std::ostringstream row;
    for (size_t a = 0; a < axes.size(); ++a) {
        const uint32_t v = axes[a].values[p.index[a]];
        row << (axes[a].bits ? std::to_string(v) : hex(v)) << ",";
    }
    // Verdict from the run JSON; without one (crash, timeout, bad vector) it is ERROR.
    std::string verdict = "ERROR", cycles, hazards, stalls;
    nlohmann::json j;
    std::ifstream in(p.json);
    if (in && !p.timed_out) {
        try {
            in >> j;
            const std::string result = j.value("result", std::string());
            verdict = result == "pass" ? "PASS" : result == "fail" ? "FAIL" : "ERROR";
            if (j.contains("cnn_cycles") && j["cnn_cycles"].is_number())
                cycles = std::to_string(j["cnn_cycles"].get<uint64_t>());
            if (j.contains("hazards") && j["hazards"].is_array()) hazards = std::to_string(j["hazards"].size());
            if (j.contains("stall_cycles") && j["stall_cycles"].is_number())
                stalls = std::to_string(j["stall_cycles"].get<uint64_t>());
        } catch (const std::exception&) {
            verdict = "ERROR";
        }
    }
    row << verdict << "," << (p.timed_out || p.spawn_failed ? std::string() : std::to_string(p.exit_code)) << ","
        << cycles << "," << hazards << "," << stalls << ",";
    char wall[32];
    std::snprintf(wall, sizeof wall, "%.3f", p.wall);
    row << wall;
    return row.str();
}

std::string default_ai8xsim() {
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string("ai8xsim") : (self.parent_path() / "ai8xsim").string();
}

int sweep(int argc, char** argv) {
    CLI::App app{"Run ai8xsim over a grid of register overrides and write one CSV row per point"};
    std::string dir_arg, out_arg, ai8xsim = default_ai8xsim();
    std::vector<std::string> grids, grid_fields, field_defs;
    unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
    double timeout = 0;
    app.add_option("DIR", dir_arg, "Vector directory (as for ai8xsim run)")->required();
    app.add_option("-o,--output", out_arg, "CSV file to write")->required();
    app.add_option("--grid", grids, "Axis ADDR[+ADDR..]=V1,V2,... or ADDR=START:END:STEP (whole register value)");
    app.add_option("--grid-field", grid_fields,
                   "Axis ADDR[+ADDR..]:HI:LO=VALUES or NAME=VALUES: bits HI:LO replaced in the value cnn.c writes");
    app.add_option("--field", field_defs, "Name a field for --grid-field: NAME=ADDR[+ADDR..]:HI:LO");
    app.add_option("-j,--jobs", jobs, "Runs in parallel (default: number of cores)")->check(CLI::PositiveNumber);
    app.add_option("--ai8xsim", ai8xsim, "ai8xsim binary (default: next to this program)");
    app.add_option("--timeout", timeout, "Seconds per run before it is killed (0: none)")
        ->check(CLI::NonNegativeNumber);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int rc = app.exit(e);
        return rc == 0 ? 0 : 2;
    }

    const fs::path dir(dir_arg);
    if (!fs::is_directory(dir)) throw UsageError("vector directory '" + dir_arg + "' does not exist");
    if (access(ai8xsim.c_str(), X_OK) != 0)
        throw UsageError("ai8xsim binary '" + ai8xsim + "' not found or not executable (use --ai8xsim PATH)");
    if (grids.empty() && grid_fields.empty()) throw UsageError("no axis: give at least one --grid or --grid-field");

    std::map<std::string, Field> named;
    for (const std::string& def : field_defs) {
        const auto eq = def.find('=');
        const auto parts = split(eq == std::string::npos ? std::string() : def.substr(eq + 1), ':');
        if (eq == 0 || eq == std::string::npos || parts.size() != 3)
            throw UsageError("--field '" + def + "': expected NAME=ADDR[+ADDR..]:HI:LO");
        const auto [hi, lo] = parse_bits(parts[1], parts[2], "--field", def);
        named[def.substr(0, eq)] = Field{parse_addresses(parts[0], "--field", def), hi, lo};
    }

    std::map<uint32_t, uint32_t> generated;
    if (!grid_fields.empty()) generated = generated_writes(dir / "cnn.c");
    // Axes (CSV columns, grid nesting) in the order the user gave them, whichever option.
    std::vector<Axis> axes;
    size_t next_grid = 0, next_field = 0;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if ((a == "--grid" || a.rfind("--grid=", 0) == 0) && next_grid < grids.size()) {
            axes.push_back(parse_grid(grids[next_grid++]));
        } else if ((a == "--grid-field" || a.rfind("--grid-field=", 0) == 0) && next_field < grid_fields.size()) {
            const std::string& g = grid_fields[next_field++];
            axes.push_back(parse_grid_field(g, named));
            for (uint32_t addr : axes.back().addresses)
                if (!generated.count(addr))
                    throw UsageError("--grid-field '" + g + "': " + (dir / "cnn.c").string() + " never writes " +
                                     hex(addr) + ", so there are no generated bits to keep");
        }
    }

    check_grid_size(axes);
    // Grid order: the last axis varies fastest.
    std::vector<Point> points;
    std::vector<size_t> index(axes.size(), 0);
    const fs::path tmp = fs::temp_directory_path() / ("ai8xsim-sweep-" + std::to_string(getpid()));
    fs::create_directories(tmp);
    for (;;) {
        Point p;
        p.index = index;
        p.sets = point_overrides(axes, index, generated);
        p.json = tmp / ("point-" + std::to_string(points.size() + 1) + ".json");
        p.log = tmp / ("point-" + std::to_string(points.size() + 1) + ".log");
        points.push_back(std::move(p));
        size_t a = axes.size();
        while (a > 0 && ++index[a - 1] == axes[a - 1].values.size()) index[--a] = 0;
        if (a == 0) break;
    }
    std::cerr << "ai8xsim-sweep: " << points.size() << " points, " << jobs << " in parallel, logs in " << tmp << "\n";

    // The first run builds (and caches) the firmware; running it alone keeps
    // the parallel runs from building the same firmware at once.
    size_t finished = 0;
    run_points(points, 0, 1, 1, timeout, ai8xsim, dir, finished);
    run_points(points, 1, points.size(), jobs, timeout, ai8xsim, dir, finished);

    std::ostringstream csv;
    for (const Axis& a : axes) csv << a.label << ",";
    csv << "verdict,exit_code,cnn_cycles,hazards,stall_cycles,wall_s\n";
    for (const Point& p : points) csv << csv_row(p, axes) << "\n";

    // Atomic: a reader never sees a half-written table.
    const fs::path out(out_arg);
    const fs::path partial = out.string() + ".partial";
    {
        std::ofstream f(partial);
        f << csv.str();
        if (!f) throw UsageError("cannot write " + partial.string());
    }
    fs::rename(partial, out);
    std::error_code ec;
    fs::remove_all(tmp, ec);
    std::cerr << "ai8xsim-sweep: wrote " << out << "\n";
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return sweep(argc, argv);
    } catch (const UsageError& e) {
        std::cerr << "ai8xsim-sweep: " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "ai8xsim-sweep: " << e.what() << "\n";
        return 2;
    }
}
