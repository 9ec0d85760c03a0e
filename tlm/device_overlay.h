// Device families: a device file may name a base file (`base: max78000.yaml`)
// and state only what differs from it. The loader reads the base (which may
// have a base of its own), lays this file over it and parses the result as one
// description.
//
// Overlay rules, key by key:
//  * a mapping is merged key by key; a key set to null (`riscv: ~`) is removed;
//  * a list of named entries (every entry a mapping with a `name`: registers,
//    fields, peripherals, CPU regions) is merged by name: an entry with a known
//    name changes that entry (only the keys it gives), `remove: true` deletes
//    it, an unknown name is appended;
//  * any other value replaces the base's.
// An overlay value equal to the base's is an error ("restates the base"): the
// family's description then defines each field in exactly one place, and a
// reader of the overlay sees only the device's differences.
#pragma once

#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace ai8x {

// Which file each node of a merged description came from, for messages.
class DescriptionSources {
public:
    explicit DescriptionSources(std::string top) : top_(std::move(top)) {}

    // The file the user named.
    const std::string& top() const { return top_; }
    // Every file read: the top file first, then its bases.
    std::vector<std::string> files() const;
    // "file:line" of a node read from a file, or "" for a node the merge made.
    std::string where(const YAML::Node& node) const;
    // Prefix of a message about `node`: "top:line" when it came from the top
    // file, "top" otherwise; `inherited` then says where in a base it came from.
    std::string prefix(const YAML::Node* node, std::string& inherited) const;

    // Records every node of `document`, read from `file`.
    void add_document(const YAML::Node& document, const std::string& file);

private:
    struct Origin {
        YAML::Node node;
        std::size_t file;
    };
    void add_nodes(const YAML::Node& n, std::size_t file);

    std::string top_;
    std::vector<std::string> files_;
    std::vector<Origin> origins_;
};

// Parses `text` (the contents of `source`) and, when it names a base, merges it
// over that base. A relative base path is looked up next to `source`, then among
// the bundled device files. Throws ConfigError naming the file and key.
YAML::Node load_description(const std::string& text, const std::string& source, DescriptionSources& sources);

}  // namespace ai8x
