// YAML walking with error messages that name the file, the line and the key
// path ("file:line: key.path: what is wrong"), shared by the device-description
// loaders.
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>

#include <yaml-cpp/yaml.h>

#include "tlm/device_config.h"
#include "tlm/device_overlay.h"

namespace ai8x {

// The YAML document in file `path`, for files outside the device description
// (timing calibration, silicon anchors). A missing or malformed file throws
// std::runtime_error naming the path and what the parser says.
inline YAML::Node load_yaml_file(const std::string& path) {
    try {
        return YAML::LoadFile(path);
    } catch (const YAML::Exception& e) {
        throw std::runtime_error(path + ": " + e.what());
    }
}

// Walks the YAML tree and remembers the files it came from (a device file and
// its bases, tlm/device_overlay.h), so every error can say where it is.
class Reader {
public:
    explicit Reader(const DescriptionSources& sources) : sources_(sources) {}

    const std::string& file() const { return sources_.top(); }

    [[noreturn]] void fail(const std::string& key, const std::string& what, const YAML::Node* at = nullptr) const {
        std::string inherited;
        std::ostringstream os;
        os << sources_.prefix(at, inherited) << ": " << key << ": " << what;
        if (!inherited.empty()) os << " (inherited from " << inherited << ")";
        throw ConfigError(os.str());
    }

    // Child `name` of map `parent` (whose own path is `path`); must exist.
    YAML::Node need(const YAML::Node& parent, const std::string& path, const std::string& name) const {
        const std::string key = path.empty() ? name : path + "." + name;
        if (!parent.IsMap()) fail(path, "expected a mapping", &parent);
        YAML::Node child = parent[name];
        if (!child.IsDefined() || child.IsNull()) fail(key, "missing key", &parent);
        return child;
    }

    uint64_t u64(const YAML::Node& parent, const std::string& path, const std::string& name) const {
        const std::string key = path.empty() ? name : path + "." + name;
        const YAML::Node n = need(parent, path, name);
        if (!n.IsScalar()) fail(key, "expected a number", &n);
        const std::string text = n.Scalar();
        // Decimal or 0x-prefixed hex; no octal surprises from a leading zero.
        int base = 10;
        std::string digits = text;
        if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
            base = 16;
            digits = text.substr(2);
        }
        if (digits.empty() ||
            digits.find_first_not_of(base == 16 ? "0123456789abcdefABCDEF" : "0123456789") != std::string::npos)
            fail(key, "expected a non-negative integer (decimal or 0x hex), got '" + text + "'", &n);
        errno = 0;
        const unsigned long long v = std::strtoull(digits.c_str(), nullptr, base);
        if (errno == ERANGE) fail(key, "number out of range: '" + text + "'", &n);
        return v;
    }

    uint32_t u32(const YAML::Node& parent, const std::string& path, const std::string& name) const {
        const uint64_t v = u64(parent, path, name);
        const YAML::Node n = parent[name];
        if (v > 0xffffffffull) fail(path + "." + name, "value does not fit in 32 bits", &n);
        return static_cast<uint32_t>(v);
    }

    // A count or size that must be at least 1.
    uint64_t positive(const YAML::Node& parent, const std::string& path, const std::string& name) const {
        const uint64_t v = u64(parent, path, name);
        const YAML::Node n = parent[name];
        if (v == 0) fail(path + "." + name, "must be greater than zero", &n);
        return v;
    }

    double hz(const YAML::Node& parent, const std::string& path, const std::string& name) const {
        return static_cast<double>(positive(parent, path, name));
    }

    std::string str(const YAML::Node& parent, const std::string& path, const std::string& name) const {
        const YAML::Node n = need(parent, path, name);
        if (!n.IsScalar() || n.Scalar().empty()) fail(path.empty() ? name : path + "." + name, "expected a name", &n);
        return n.Scalar();
    }

    bool boolean(const YAML::Node& parent, const std::string& path, const std::string& name) const {
        const YAML::Node n = need(parent, path, name);
        const std::string& s = n.IsScalar() ? n.Scalar() : std::string();
        if (s == "true") return true;
        if (s == "false") return false;
        fail(path + "." + name, "expected true or false, got '" + s + "'", &n);
    }

private:
    const DescriptionSources& sources_;
};

// One mapping of the description with its key path ("cpu.timing"): reads its
// children by name, so a reader function names the path once.
class Section {
public:
    Section(const Reader& r, const YAML::Node& parent, const std::string& parent_path, const std::string& name)
        : r_(r),
          node_(r.need(parent, parent_path, name)),
          path_(parent_path.empty() ? name : parent_path + "." + name) {}

    Section child(const std::string& name) const { return Section(r_, node_, path_, name); }
    const YAML::Node& node() const { return node_; }
    const std::string& path() const { return path_; }

    uint64_t u64(const std::string& name) const { return r_.u64(node_, path_, name); }
    uint32_t u32(const std::string& name) const { return r_.u32(node_, path_, name); }
    uint64_t positive(const std::string& name) const { return r_.positive(node_, path_, name); }
    // A count that must be at least 1 and fit the 32 bits the model keeps it in.
    uint32_t positive32(const std::string& name) const {
        const uint64_t v = positive(name);
        if (v > 0xffffffffull) r_.fail(path_ + "." + name, "value does not fit in 32 bits", &node_);
        return static_cast<uint32_t>(v);
    }
    double hz(const std::string& name) const { return r_.hz(node_, path_, name); }
    std::string str(const std::string& name) const { return r_.str(node_, path_, name); }
    [[noreturn]] void fail(const std::string& key, const std::string& what) const {
        r_.fail(path_ + "." + key, what, &node_);
    }

private:
    const Reader& r_;
    YAML::Node node_;
    std::string path_;
};

// Reads and checks the register_map section (tlm/register_description.cpp);
// needs the register blocks, per-layer geometry and fifo_count of `c`.
RegisterMap read_register_map(const Reader& r, const YAML::Node& root, const DeviceConfig& c);

// Reads and checks the peripherals section (tlm/register_description.cpp);
// every instance must lie inside the CPU's peripheral window.
std::vector<PeripheralDescription> read_peripherals(const Reader& r, const YAML::Node& root, uint64_t window_base,
                                                    uint64_t window_size);

// Reads and checks the optional energy section (tlm/energy_config.cpp).
EnergyConfig read_energy_config(const Reader& r, const YAML::Node& root);

// Reads and checks the optional rtl_testbench section (tlm/rtl_testbench_config.cpp)
// against the memories of `c`.
RtlTestbenchConfig read_rtl_testbench_config(const Reader& r, const YAML::Node& root, const DeviceConfig& c);

}  // namespace ai8x
