// Device files over a base file (tlm/device_overlay.h): reading the chain of
// bases, merging by the overlay rules, and naming the file of every node.
#include "tlm/device_overlay.h"

#include <fstream>
#include <sstream>

#include "tlm/device_config.h"

namespace ai8x {

std::vector<std::string> DescriptionSources::files() const { return files_; }

void DescriptionSources::add_nodes(const YAML::Node& n, std::size_t file) {
    origins_.push_back({n, file});
    if (n.IsMap())
        for (const auto& kv : n) add_nodes(kv.second, file);
    else if (n.IsSequence())
        for (const YAML::Node& child : n) add_nodes(child, file);
}

void DescriptionSources::add_document(const YAML::Node& document, const std::string& file) {
    files_.push_back(file);
    add_nodes(document, files_.size() - 1);
}

std::string DescriptionSources::where(const YAML::Node& node) const {
    for (const Origin& o : origins_)
        if (o.node.is(node) && node.Mark().line >= 0)
            return files_[o.file] + ":" + std::to_string(node.Mark().line + 1);
    return "";
}

std::string DescriptionSources::prefix(const YAML::Node* node, std::string& inherited) const {
    inherited.clear();
    if (!node) return top_;
    for (const Origin& o : origins_) {
        if (!o.node.is(*node) || node->Mark().line < 0) continue;
        if (o.file == 0) return top_ + ":" + std::to_string(node->Mark().line + 1);
        inherited = files_[o.file] + ":" + std::to_string(node->Mark().line + 1);
        return top_;
    }
    return top_;
}

namespace {

constexpr int kMaxBaseDepth = 8;  // a longer chain is a cycle

YAML::Node parse_text(const std::string& text, const std::string& source) {
    try {
        return YAML::Load(text);
    } catch (const YAML::Exception& e) {
        throw ConfigError(source + ":" + std::to_string(e.mark.line + 1) + ": malformed YAML: " + e.msg);
    }
}

std::string folder_of(const std::string& path) {
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? "." : path.substr(0, slash);
}

// The base file `name` that `source` names: next to it, else a bundled device file.
std::string find_base(const std::string& name, const std::string& source) {
    if (name.empty()) throw ConfigError(source + ": base: expected the name of a device file");
    if (name[0] == '/') return name;
    for (const std::string& folder : {folder_of(source), bundled_device_config_dir()}) {
        const std::string path = folder + "/" + name;
        if (std::ifstream(path).good()) return path;
    }
    throw ConfigError(source + ": base: no device file " + name + " next to it or among the bundled ones (" +
                      bundled_device_config_dir() + ")");
}

bool same(const YAML::Node& a, const YAML::Node& b) {
    if (a.Type() != b.Type()) return false;
    if (a.IsScalar()) return a.Scalar() == b.Scalar();
    if (a.IsSequence()) {
        if (a.size() != b.size()) return false;
        for (std::size_t i = 0; i < a.size(); ++i)
            if (!same(a[i], b[i])) return false;
        return true;
    }
    if (a.IsMap()) {
        if (a.size() != b.size()) return false;
        for (const auto& kv : a) {
            const YAML::Node other = b[kv.first.Scalar()];
            if (!other.IsDefined() || !same(kv.second, other)) return false;
        }
    }
    return true;
}

bool is_named_entry(const YAML::Node& n) { return n.IsMap() && n["name"] && n["name"].IsScalar(); }

bool is_named_list(const YAML::Node& n) {
    if (!n.IsSequence() || n.size() == 0) return false;
    for (const YAML::Node& e : n)
        if (!is_named_entry(e)) return false;
    return true;
}

// Applies one overlay onto its base, reporting against the overlay's file.
class Merger {
public:
    Merger(const DescriptionSources& sources, std::string overlay) : sources_(sources), overlay_(std::move(overlay)) {}

    // Merges mapping `over` into `base`; `identity` is the key that names an
    // entry (not a value it changes), "base" at the top level.
    void map(YAML::Node base, const YAML::Node& over, const std::string& path, const char* identity = "") const {
        for (const auto& kv : over) {
            const std::string key = kv.first.Scalar();
            if (key == identity) continue;
            const std::string at = path.empty() ? key : path + "." + key;
            const YAML::Node value = kv.second;
            if (value.IsNull()) {
                if (!base[key]) fail(at, "removes a key the base does not have", value);
                base.remove(key);
            } else if (!base[key]) {
                base[key] = value;
            } else {
                base[key] = merged(base[key], value, at);
            }
        }
    }

private:
    YAML::Node merged(YAML::Node base, const YAML::Node& over, const std::string& at) const {
        if (base.IsMap() && over.IsMap()) {
            map(base, over, at);
            return base;
        }
        if (is_named_list(base) && is_named_list(over)) return named_list(base, over, at);
        if (same(base, over)) restated(at, over, base);
        return over;
    }

    YAML::Node named_list(const YAML::Node& base, const YAML::Node& over, const std::string& at) const {
        YAML::Node out(YAML::NodeType::Sequence);
        for (const YAML::Node& e : base) out.push_back(e);
        for (const YAML::Node& change : over) {
            const std::string name = change["name"].Scalar();
            const std::string entry = at + "." + name;
            std::size_t i = 0;
            while (i < out.size() && out[i]["name"].Scalar() != name) ++i;
            const bool remove = change["remove"] && change["remove"].IsScalar() && change["remove"].Scalar() == "true";
            if (i == out.size()) {
                if (remove) fail(entry, "removes an entry the base does not have", change);
                out.push_back(change);
            } else if (remove) {
                if (change.size() != 2) fail(entry, "an entry with remove: true states nothing else", change);
                out = without(out, i);
            } else {
                if (change.size() < 2) fail(entry, "names an entry of the base but changes nothing", change);
                YAML::Node kept = out[i];
                map(kept, change, entry, "name");
            }
        }
        return out;
    }

    static YAML::Node without(const YAML::Node& list, std::size_t index) {
        YAML::Node out(YAML::NodeType::Sequence);
        for (std::size_t i = 0; i < list.size(); ++i)
            if (i != index) out.push_back(list[i]);
        return out;
    }

    [[noreturn]] void restated(const std::string& at, const YAML::Node& over, const YAML::Node& base) const {
        const std::string from = sources_.where(base);
        fail(at,
             "restates the base's value" + (from.empty() ? std::string() : " (" + from + ")") +
                 "; a device file over a base states only what differs",
             over);
    }

    [[noreturn]] void fail(const std::string& at, const std::string& what, const YAML::Node& node) const {
        std::ostringstream os;
        os << overlay_;
        if (node.Mark().line >= 0) os << ':' << node.Mark().line + 1;
        os << ": " << at << ": " << what;
        throw ConfigError(os.str());
    }

    const DescriptionSources& sources_;
    std::string overlay_;
};

YAML::Node load_chain(const std::string& text, const std::string& source, DescriptionSources& sources, int depth) {
    if (depth > kMaxBaseDepth) throw ConfigError(source + ": base: the chain of base files does not end (a cycle?)");
    YAML::Node doc = parse_text(text, source);
    sources.add_document(doc, source);
    if (!doc.IsMap() || !doc["base"]) return doc;
    const YAML::Node base_name = doc["base"];
    const std::string path = find_base(base_name.IsScalar() ? base_name.Scalar() : std::string(), source);
    std::ifstream in(path);
    std::ostringstream base_text;
    base_text << in.rdbuf();
    YAML::Node merged = load_chain(base_text.str(), path, sources, depth + 1);
    if (!merged.IsMap()) throw ConfigError(path + ": expected a mapping of sections");
    Merger(sources, source).map(merged, doc, "", "base");
    return merged;
}

}  // namespace

YAML::Node load_description(const std::string& text, const std::string& source, DescriptionSources& sources) {
    return load_chain(text, source, sources, 0);
}

}  // namespace ai8x
