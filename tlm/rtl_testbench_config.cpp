// The rtl_testbench: section of a device file (tlm/rtl_testbench_config.h).
// Checked when the file is loaded, so that a wrong part size or an unknown
// field is a message naming the key, not a preload that lands elsewhere.
#include "tlm/rtl_testbench_config.h"

#include "tlm/yaml_reader.h"

namespace ai8x {

namespace {

const char* const kFields[] = {"{quadrant}", "{processor}", "{part}"};

// A file name pattern must name every field once (two parts of different
// instances would otherwise share a file) and no other.
void check_pattern(const Reader& r, const YAML::Node& n, const std::string& key, const std::string& pattern) {
    for (const char* f : kFields)
        if (pattern.find(f) == std::string::npos) r.fail(key, std::string("must contain ") + f, &n);
    std::string rest = rtl_memory_file_name(pattern, 0, 0, 0);
    if (rest.find_first_of("{}/") != std::string::npos)
        r.fail(key, "only {quadrant}, {processor} and {part} may appear in braces, and no folder", &n);
}

std::string optional_str(const Reader& r, const YAML::Node& n, const std::string& path, const char* name) {
    return n[name] ? r.str(n, path, name) : std::string();
}

std::vector<uint32_t> read_parts(const Reader& r, const YAML::Node& n, const std::string& path,
                                 const ArrayGeometry& g) {
    const YAML::Node list = r.need(n, path, "part_words");
    if (!list.IsSequence() || list.size() == 0) r.fail(path + ".part_words", "expected a list of word counts", &list);
    std::vector<uint32_t> parts;
    for (size_t i = 0; i < list.size(); ++i) {
        YAML::Node item;  // the reader checks numbers of maps: wrap the list element
        item["words"] = list[i];
        parts.push_back(uint32_t(r.positive(item, path + ".part_words[" + std::to_string(i) + "]", "words")));
    }
    // Every instance must end on a part boundary, or a file would cover words it does not have.
    for (uint32_t i = 0; i < g.instances_per_quadrant; ++i) {
        uint32_t covered = 0;
        for (size_t p = 0; p < parts.size() && covered < g.words_of(i); ++p) covered += parts[p];
        if (covered != g.words_of(i))
            r.fail(path + ".part_words",
                   "the parts do not end where instance " + std::to_string(i) + " of a quadrant ends (" +
                       std::to_string(g.words_of(i)) + " words)",
                   &list);
    }
    return parts;
}

RtlMemoryFiles read_files(const Reader& r, const YAML::Node& n, const std::string& path, const DeviceConfig& c) {
    RtlMemoryFiles f;
    f.memory = r.str(n, path, "memory");
    const ArrayGeometry* g = rtl_memory_geometry(c, f.memory);
    if (!g) r.fail(path + ".memory", "expected data_sram or kernel, got '" + f.memory + "'", &n);
    f.name = r.str(n, path, "name");
    check_pattern(r, n, path + ".name", f.name);
    f.preload_folder = optional_str(r, n, path, "preload_folder");
    f.expected_folder = optional_str(r, n, path, "expected_folder");
    f.dump_folder = optional_str(r, n, path, "dump_folder");
    f.dump_name = optional_str(r, n, path, "dump_name");
    if (f.dump_folder.empty() != f.dump_name.empty()) r.fail(path, "dump_folder and dump_name go together", &n);
    if (!f.dump_name.empty()) check_pattern(r, n, path + ".dump_name", f.dump_name);
    f.part_words = read_parts(r, n, path, *g);
    return f;
}

}  // namespace

std::string rtl_memory_file_name(const std::string& pattern, uint32_t quadrant, uint32_t processor, uint32_t part) {
    std::string s = pattern;
    const uint32_t values[] = {quadrant, processor, part};
    for (size_t i = 0; i < 3; ++i)
        for (size_t at; (at = s.find(kFields[i])) != std::string::npos;)
            s.replace(at, std::string(kFields[i]).size(), std::to_string(values[i]));
    return s;
}

const ArrayGeometry* rtl_memory_geometry(const DeviceConfig& cfg, const std::string& memory) {
    if (memory == "data_sram") return &cfg.data_sram;
    if (memory == "kernel") return &cfg.kernel_mem;
    return nullptr;
}

std::vector<RtlMemoryPart> rtl_memory_parts(const DeviceConfig& cfg, const RtlMemoryFiles& files) {
    const ArrayGeometry& g = *rtl_memory_geometry(cfg, files.memory);
    const uint32_t processors_per_instance = cfg.processors_per_quadrant / g.instances_per_quadrant;
    std::vector<RtlMemoryPart> out;
    for (uint32_t q = 0; q < cfg.quadrants; ++q)
        for (uint32_t i = 0; i < g.instances_per_quadrant; ++i) {
            uint32_t first = 0;
            for (uint32_t p = 0; p < files.part_words.size() && first < g.words_of(i); ++p) {
                RtlMemoryPart part;
                part.file = rtl_memory_file_name(files.name, q, i * processors_per_instance, p);
                if (!files.dump_name.empty())
                    part.dump_file = rtl_memory_file_name(files.dump_name, q, i * processors_per_instance, p);
                part.quadrant = q;
                part.instance = q * g.instances_per_quadrant + i;
                part.first_word = first;
                part.words = files.part_words[p];
                first += part.words;
                out.push_back(part);
            }
        }
    return out;
}

RtlTestbenchConfig read_rtl_testbench_config(const Reader& r, const YAML::Node& root, const DeviceConfig& c) {
    RtlTestbenchConfig t;
    const YAML::Node n = root["rtl_testbench"];
    if (!n) return t;
    t.present = true;
    const YAML::Node list = r.need(n, "rtl_testbench", "memory_files");
    if (!list.IsSequence()) r.fail("rtl_testbench.memory_files", "expected a list", &list);
    for (size_t i = 0; i < list.size(); ++i)
        t.memory_files.push_back(read_files(r, list[i], "rtl_testbench.memory_files[" + std::to_string(i) + "]", c));
    return t;
}

}  // namespace ai8x
