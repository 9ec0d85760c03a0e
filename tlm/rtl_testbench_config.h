// The vendor's RTL testbench as a device file describes it (configs/<device>.yaml,
// section `rtl_testbench:`): which memory files its load_cnn_mems_N and
// dump_cnn_mems_N tasks read and write, and which memory instance each names.
// The RTL flow (docs/rtl-flow.md) preloads and dumps through this description
// only; no file name or part size is written in code.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ai8x {

// One kind of memory file: the instances of one accelerator memory, each cut
// into parts of consecutive words, one file per (quadrant, instance, part).
struct RtlMemoryFiles {
    std::string memory;  // "data_sram" or "kernel" (the memories: key of the device file)
    // File name with the fields {quadrant}, {processor} (the first processor of
    // the instance, counted in its quadrant) and {part}.
    std::string name;
    std::string preload_folder;        // where run_test.sv's load tasks read (empty: never preloaded)
    std::string expected_folder;       // the generator's expected dumps (empty: none)
    std::string dump_folder;           // where the dump tasks write (empty: never dumped)
    std::string dump_name;             // name of a dump, same fields as `name`
    std::vector<uint32_t> part_words;  // words of part 0, 1, ... of an instance
};

struct RtlTestbenchConfig {
    bool present = false;  // the device file has an rtl_testbench: section
    std::vector<RtlMemoryFiles> memory_files;
};

}  // namespace ai8x

namespace ai8x {

struct DeviceConfig;
struct ArrayGeometry;

// One memory file of one instance part, as the description resolves it.
struct RtlMemoryPart {
    std::string file;       // name from RtlMemoryFiles::name
    std::string dump_file;  // name from RtlMemoryFiles::dump_name (empty without one)
    uint32_t quadrant = 0;
    uint32_t instance = 0;    // global instance number (quadrant * instances_per_quadrant + i)
    uint32_t first_word = 0;  // word of the instance where the part starts
    uint32_t words = 0;
};

// The geometry of the memory an entry names (nullptr if the device has none of that name).
const ArrayGeometry* rtl_memory_geometry(const DeviceConfig& cfg, const std::string& memory);

// Every part of every instance of `files`' memory, in quadrant, instance, part order.
std::vector<RtlMemoryPart> rtl_memory_parts(const DeviceConfig& cfg, const RtlMemoryFiles& files);

// `pattern` with {quadrant}, {processor} and {part} replaced.
std::string rtl_memory_file_name(const std::string& pattern, uint32_t quadrant, uint32_t processor, uint32_t part);

}  // namespace ai8x
