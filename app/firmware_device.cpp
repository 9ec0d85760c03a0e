#include "app/firmware_device.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ai8x {

namespace fs = std::filesystem;

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

struct Source {
    std::string name;  // file name, for the evidence
    std::string text;  // lower-cased contents
};

// The generated C files of `dir` (sorted: the evidence names the same file every time).
std::vector<Source> read_sources(const std::string& dir) {
    std::vector<fs::path> paths;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        const std::string ext = e.path().extension().string();
        if (e.is_regular_file() && (ext == ".c" || ext == ".h")) paths.push_back(e.path());
    }
    std::sort(paths.begin(), paths.end());
    std::vector<Source> out;
    for (const auto& p : paths) {
        std::ifstream in(p, std::ios::binary);
        std::ostringstream ss;
        ss << in.rdbuf();
        out.push_back({p.filename().string(), lower(ss.str())});
    }
    return out;
}

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// `--device NAME` anywhere in the text; NAME as written (lower-cased), or empty.
std::string device_option(const std::string& text) {
    static const std::string flag = "--device";
    for (size_t at = text.find(flag); at != std::string::npos; at = text.find(flag, at + 1)) {
        size_t p = at + flag.size();
        if (p >= text.size() || (text[p] != ' ' && text[p] != '=' && text[p] != '\t')) continue;
        while (p < text.size() && (text[p] == ' ' || text[p] == '=' || text[p] == '\t')) ++p;
        size_t end = p;
        while (end < text.size() && is_name_char(text[end])) ++end;
        if (end > p) return text.substr(p, end - p);
    }
    return {};
}

// `literal` (a lower-case 0x... address) not continued by another hex digit.
bool contains_address(const std::string& text, const std::string& literal) {
    for (size_t at = text.find(literal); at != std::string::npos; at = text.find(literal, at + 1)) {
        const size_t end = at + literal.size();
        const bool cut = end >= text.size() || !std::isxdigit(static_cast<unsigned char>(text[end]));
        const bool starts = at == 0 || !is_name_char(text[at - 1]);
        if (cut && starts) return true;
    }
    return false;
}

}  // namespace

std::vector<DeviceConfig> bundled_device_configs() {
    std::vector<DeviceConfig> out;
    const fs::path dir = fs::path(default_device_config_path()).parent_path();
    std::vector<fs::path> files;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.is_regular_file() && e.path().extension() == ".yaml") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
        try {
            out.push_back(load_device_config(f.string()));
        } catch (const ConfigError&) {
            // not a usable description: it cannot be picked
        }
    }
    return out;
}

std::optional<NamedDevice> device_named_by_firmware(const std::string& dir) {
    for (const Source& s : read_sources(dir)) {
        const std::string named = device_option(s.text);
        if (named.empty()) continue;
        // Only the first naming source counts, as in detect_firmware_device;
        // a name without a file of that name is left to the full search.
        const fs::path file = fs::path(default_device_config_path()).parent_path() / (named + ".yaml");
        std::error_code ec;
        if (!fs::is_regular_file(file, ec)) return std::nullopt;
        try {
            DeviceConfig cfg = load_device_config(file.string());
            if (lower(cfg.name) != named) return std::nullopt;
            FirmwareDevice device{cfg.name, s.name + ": --device " + cfg.name};
            return NamedDevice{std::move(device), std::move(cfg)};
        } catch (const ConfigError&) {
            return std::nullopt;
        }
    }
    return std::nullopt;
}

FirmwareDevice detect_firmware_device(const std::string& dir, const std::vector<DeviceConfig>& known) {
    const std::vector<Source> sources = read_sources(dir);

    // The generator's own statement of the target.
    for (const Source& s : sources) {
        const std::string named = device_option(s.text);
        if (named.empty()) continue;
        for (const DeviceConfig& d : known)
            if (lower(d.name) == named) return {d.name, s.name + ": --device " + d.name};
    }

    // The control register of quadrant 0, which every generated cnn.c writes.
    std::vector<const DeviceConfig*> hits;
    std::string evidence;
    for (const DeviceConfig& d : known) {
        char literal[24];
        std::snprintf(literal, sizeof literal, "0x%08llx", static_cast<unsigned long long>(d.quadrant_regs.base));
        for (const Source& s : sources)
            if (contains_address(s.text, literal)) {
                hits.push_back(&d);
                evidence = s.name + ": writes " + literal + " (" + d.name + " quadrant 0 control)";
                break;
            }
    }
    if (hits.size() == 1) return {hits.front()->name, evidence};
    return {};
}

}  // namespace ai8x
