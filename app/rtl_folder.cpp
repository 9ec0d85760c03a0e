#include "app/rtl_folder.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;

namespace ai8x {

namespace {

constexpr double kRepeatTimeoutUnitMs = 10;  // izer/rtlsim.py writes REPEAT_TIMEOUT = timeout_ms / 10

std::string read_text(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) throw RtlFolderError(p.string() + ": cannot open");
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

[[noreturn]] void fail_folder_line(const std::string& name, unsigned line, const std::string& what) {
    throw RtlFolderError(name + ":" + std::to_string(line) + ": " + what);
}

double number(const std::string& text, const std::string& name, unsigned line, const std::string& what) {
    try {
        size_t used = 0;
        const double v = std::stod(text, &used);
        if (used == text.size() && v >= 0) return v;
    } catch (const std::exception&) {
    }
    fail_folder_line(name, line, what + " '" + text + "' is not a number");
}

void add_group(std::vector<uint32_t>& groups, const std::string& digits) {
    const uint32_t g = uint32_t(std::stoul(digits));
    if (std::find(groups.begin(), groups.end(), g) == groups.end()) groups.push_back(g);
}

// One line of run_test.sv: the facts the testbench takes from it.
void read_line(const std::string& line, const std::string& name, unsigned n, RtlFolder& f) {
    static const std::regex arm(R"(^\s*`define\s+ARM_PROG_SOURCE\s+(\S+))");
    static const std::regex riscv(R"(^\s*`define\s+RISCV_PROG_SOURCE\s+(\S+))");
    static const std::regex timeout(R"(^\s*defparam\s+REPEAT_TIMEOUT\s*=\s*([^;\s]+)\s*;)");
    static const std::regex load(R"(\bload_cnn_mems_(\d+)\s*;)");
    static const std::regex dump(R"(\bdump_cnn_mems_(\d+)\s*;)");
    static const std::regex delay(R"(^\s*assign\s+#\s*([0-9.]+)\s+chk_clk\b)");
    static const std::regex csv(R"re(^\s*`define\s+CSV_FILE\s+\{`TARGET_DIR\s*,\s*"/([^"]+)"\})re");
    static const std::regex pix(R"(^\s*parameter\s+pclk_ai_per_pix\s*=\s*(\d+)\s*;)");
    static const std::regex period(R"(^\s*#\s*([0-9.]+)\s*ns\s*;)");
    std::smatch m;
    if (std::regex_search(line, m, arm)) f.arm_source = m[1];
    if (std::regex_search(line, m, riscv)) f.riscv_source = m[1];
    if (std::regex_search(line, m, timeout))
        f.timeout_ms = number(m[1], name, n, "REPEAT_TIMEOUT") * kRepeatTimeoutUnitMs;
    if (std::regex_search(line, m, load)) add_group(f.load_groups, m[1]);
    if (std::regex_search(line, m, dump)) add_group(f.dump_groups, m[1]);
    if (std::regex_search(line, m, delay)) f.enable_delay_ns = number(m[1], name, n, "the chk_clk delay");
    if (line.find("$system") != std::string::npos && line.find("verify-output.py") != std::string::npos)
        f.runs_verify_output = true;
    if (std::regex_search(line, m, csv)) f.camera.emplace().csv_file = m[1];
    if (f.camera && std::regex_search(line, m, pix)) f.camera->pixel_clock_divider = uint32_t(std::stoul(m[1]));
    // The row period is the delay inside the camera loop, after the CSV file is named.
    if (f.camera && !f.camera->row_period_ns && std::regex_search(line, m, period) && !f.camera->pixel_clock_divider)
        f.camera->row_period_ns = number(m[1], name, n, "the camera row period");
}

// The body of the first `NAME ... { ... }` section of a linker script, and the region after it.
std::string placed_region(const std::string& text, const std::string& section, const std::string& name) {
    const std::regex start("(^|\\s)" + std::regex_replace(section, std::regex(R"(\.)"), R"(\.)") + R"(\s*[^{]*\{)");
    std::smatch m;
    if (!std::regex_search(text, m, start)) throw RtlFolderError(name + ": no " + section + " section");
    size_t i = size_t(m.position(0) + m.length(0));
    for (int depth = 1; depth > 0 && i < text.size(); ++i) depth += text[i] == '{' ? 1 : text[i] == '}' ? -1 : 0;
    static const std::regex target(R"(^\s*>\s*(\w+))");
    const std::string rest = text.substr(i);
    if (!std::regex_search(rest, m, target)) throw RtlFolderError(name + ": " + section + " is not placed in a region");
    return m[1];
}

}  // namespace

bool is_rtl_folder(const std::string& dir) {
    std::ifstream in(fs::path(dir) / "run_test.sv");
    if (!in) return false;
    for (std::string line; std::getline(in, line);)
        if (line.find("`define") != std::string::npos && line.find("ARM_PROG_SOURCE") != std::string::npos) return true;
    return false;
}

RtlFolder parse_run_test_sv(const std::string& text, const std::string& name) {
    RtlFolder f;
    std::istringstream in(text);
    unsigned n = 0;
    for (std::string line; std::getline(in, line);) read_line(line, name, ++n, f);
    if (f.arm_source.empty()) throw RtlFolderError(name + ": no `define ARM_PROG_SOURCE (the Arm program)");
    return f;
}

RtlLatency parse_latency_txt(const std::string& text, const std::string& name) {
    std::istringstream in(text);
    std::vector<uint64_t> values;
    unsigned n = 0;
    for (std::string line; std::getline(in, line);) {
        ++n;
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        std::istringstream row(line);
        uint64_t v;
        std::string extra;
        if (!(row >> v) || (row >> extra)) fail_folder_line(name, n, "expected one cycle count, got '" + line + "'");
        values.push_back(v);
    }
    if (values.empty()) throw RtlFolderError(name + ": no total cycle count");
    RtlLatency l;
    l.total = values[0];
    if (values.size() > 1) l.startup = values[1];
    l.layers.assign(values.begin() + std::min<size_t>(2, values.size()), values.end());
    return l;
}

RtlRiscvLayout parse_riscv_linker_script(const std::string& text, const std::string& name) {
    static const std::regex region(
        R"((\w+)\s*\([^)]*\)\s*:\s*ORIGIN\s*=\s*(0x[0-9a-fA-F]+|\d+)\s*,\s*LENGTH\s*=\s*(0x[0-9a-fA-F]+|\d+))");
    std::vector<RtlMemoryRegion> regions;
    for (std::sregex_iterator it(text.begin(), text.end(), region), end; it != end; ++it) {
        // Commented-out regions (/* ... */ lines of the vendor's script) are not regions.
        const size_t at = size_t(it->position(0));
        const size_t open = text.rfind("/*", at), close = text.rfind("*/", at);
        if (open != std::string::npos && (close == std::string::npos || close < open)) continue;
        regions.push_back({(*it)[1], std::stoull((*it)[2], nullptr, 0), std::stoull((*it)[3], nullptr, 0)});
    }
    auto find = [&](const std::string& region_name) {
        for (const auto& r : regions)
            if (r.name == region_name) return r;
        throw RtlFolderError(name + ": region " + region_name + " is not in MEMORY");
    };
    RtlRiscvLayout l;
    l.flash = find(placed_region(text, ".text", name));
    l.sram = find(placed_region(text, ".bss", name));
    return l;
}

std::vector<std::string> parse_makefile_cflags(const std::string& text) {
    static const std::regex optimize(R"(^\s*MXC_OPTIMIZE_CFLAGS\s*:?=\s*(.*?)\s*$)");
    static const std::regex project(R"(^\s*PROJ_CFLAGS\s*\+=\s*(.*?)\s*$)");
    std::vector<std::string> flags;
    std::istringstream in(text);
    std::smatch m;
    for (std::string line; std::getline(in, line);) {
        const bool opt = std::regex_search(line, m, optimize);
        if (!opt && !std::regex_search(line, m, project)) continue;
        std::istringstream words(m[1].str());
        for (std::string w; words >> w;)
            if (opt || w.rfind("-D", 0) == 0) flags.push_back(w);
    }
    return flags;
}

RtlFolder read_rtl_folder(const std::string& dir) {
    const fs::path run_test = fs::path(dir) / "run_test.sv";
    RtlFolder f = parse_run_test_sv(read_text(run_test), run_test.string());
    f.dir = dir;
    for (const std::string* src : {&f.arm_source, &f.riscv_source})
        if (!src->empty() && !fs::is_regular_file(fs::path(dir) / *src))
            throw RtlFolderError(run_test.string() + ": names " + *src + ", which is not in the folder");
    for (const auto& [makefile, flags] :
         {std::pair{"Makefile.ARM_PROG", &f.arm_cflags}, std::pair{"Makefile.RISCV_PROG", &f.riscv_cflags}})
        if (fs::exists(fs::path(dir) / makefile)) *flags = parse_makefile_cflags(read_text(fs::path(dir) / makefile));
    const fs::path latency = fs::path(dir) / "latency.txt";
    if (fs::exists(latency)) f.latency = parse_latency_txt(read_text(latency), latency.string());
    if (!f.riscv_source.empty()) {
        std::vector<fs::path> scripts;
        for (const auto& e : fs::directory_iterator(dir)) {
            const std::string n = e.path().filename().string();
            static const std::string suffix = "_simulation_riscv.ld";
            if (n.size() > suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0)
                scripts.push_back(e.path());
        }
        if (scripts.size() != 1)
            throw RtlFolderError(dir + ": a RISC-V test needs one *_simulation_riscv.ld linker script, found " +
                                 std::to_string(scripts.size()));
        f.riscv_layout = parse_riscv_linker_script(read_text(scripts[0]), scripts[0].string());
        f.riscv_layout->linker_script = scripts[0].filename().string();
    }
    return f;
}

std::string rtl_folder_category(const std::string& dir) {
    if (!is_rtl_folder(dir)) return {};
    RtlFolder f;
    try {
        f = parse_run_test_sv(read_text(fs::path(dir) / "run_test.sv"), "run_test.sv");
    } catch (const RtlFolderError&) {
        return "rtl";
    }
    // The generator names the device in the program's header ("--device MAX78002").
    std::ifstream in(fs::path(dir) / f.arm_source);
    std::string head(4096, '\0');
    in.read(&head[0], std::streamsize(head.size()));
    const bool max78002 = head.find("--device MAX78002") != std::string::npos;
    if (f.camera) return "rtl-camera";
    if (!f.riscv_source.empty()) return max78002 ? "rtl87-riscv" : "rtl-riscv";
    if (max78002) return "rtl87";
    return f.load_groups.empty() && f.dump_groups.empty() ? "rtl" : "rtlp";
}

}  // namespace ai8x
