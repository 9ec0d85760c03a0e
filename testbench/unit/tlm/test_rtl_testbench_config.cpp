// The rtl_testbench: section of the device files: the memory files of the
// vendor's RTL testbench resolve to the instances and parts the generator
// writes them for (izer/apbaccess.py write_mem, tornadocnn datainstance_from_addr),
// and a broken section is refused naming file, line and key.
#include <catch2/catch.hpp>

#include <string>

#include "testbench/unit/tlm/config_edit_support.h"
#include "tlm/device_config.h"
#include "build_paths.h"

using namespace ai8x;

namespace {

const RtlMemoryFiles& files_of(const DeviceConfig& c, const std::string& memory) {
    for (const RtlMemoryFiles& f : c.rtl_testbench.memory_files)
        if (f.memory == memory) return f;
    FAIL("no memory files for " << memory);
    throw;
}

const RtlMemoryPart* part_named(const std::vector<RtlMemoryPart>& parts, const std::string& file) {
    for (const RtlMemoryPart& p : parts)
        if (p.file == file) return &p;
    return nullptr;
}

}  // namespace

TEST_CASE("rtl_testbench: MAX78000 data files are one 8192-word part per instance", "[config][rtl]") {
    const DeviceConfig c = load_device_config(AI8XSIM_SOURCE_DIR "/configs/max78000.yaml");
    REQUIRE(c.rtl_testbench.present);
    const auto parts = rtl_memory_parts(c, files_of(c, "data_sram"));
    CHECK(parts.size() == 16);
    // Instance 3 of quadrant 2 serves processors 12..15 of that quadrant.
    const RtlMemoryPart* p = part_named(parts, "DRAM_x16_2_proc_12_ram_0.dat");
    REQUIRE(p);
    CHECK(p->instance == 11);
    CHECK(p->first_word == 0);
    CHECK(p->words == 8192);
    CHECK(p->dump_file == "DRAM_out_x16_2_proc_12_ram_0.dat");
    const auto kernels = rtl_memory_parts(c, files_of(c, "kernel"));
    CHECK(kernels.size() == 64);
    REQUIRE(part_named(kernels, "MRAM_x16_3_proc_15_ram_0.dat"));
    CHECK(part_named(kernels, "MRAM_x16_3_proc_15_ram_0.dat")->instance == 63);
}

TEST_CASE("rtl_testbench: MAX78002 data instances are five 4096-word RAMs, kernels four or eight", "[config][rtl]") {
    const DeviceConfig c = load_device_config(AI8XSIM_SOURCE_DIR "/configs/max78002.yaml");
    const auto parts = rtl_memory_parts(c, files_of(c, "data_sram"));
    CHECK(parts.size() == 16 * 5);
    const RtlMemoryPart* p = part_named(parts, "DRAM_x16_1_proc_4_ram_3.dat");
    REQUIRE(p);
    CHECK(p->instance == 5);
    CHECK(p->first_word == 3 * 4096);
    CHECK(p->words == 4096);
    const auto kernels = rtl_memory_parts(c, files_of(c, "kernel"));
    // Processor 0 of each quadrant has the large memory (8 parts), the other 15 four.
    CHECK(kernels.size() == 4 * (8 + 15 * 4));
    const RtlMemoryPart* big = part_named(kernels, "MRAM_x16_2_proc_0_ram_7.dat");
    REQUIRE(big);
    CHECK(big->first_word == 4096 + 3 * 256);
    CHECK(big->words == 256);
    CHECK_FALSE(part_named(kernels, "MRAM_x16_2_proc_1_ram_4.dat"));
}

TEST_CASE("rtl_testbench: a part list that does not end with the instance is refused", "[config][rtl]") {
    const std::string msg = test::config_error_after_edit(AI8XSIM_SOURCE_DIR "/configs/max78002.yaml",
                                                          R"(part_words: \[4096, 4096, 4096, 4096, 4096\])",
                                                          "part_words: [4096, 4096, 4096, 4096]");
    CHECK_THAT(msg, Catch::Contains("rtl_testbench.memory_files[0].part_words"));
    CHECK_THAT(msg, Catch::Contains("20480 words"));
}

TEST_CASE("rtl_testbench: a file name must name quadrant, processor and part", "[config][rtl]") {
    const std::string msg =
        test::config_error_after_edit(AI8XSIM_SOURCE_DIR "/configs/max78000.yaml",
                                      R"(name: "DRAM_x16_\{quadrant\}_proc_\{processor\}_ram_\{part\}.dat")",
                                      R"(name: "DRAM_x16_{quadrant}_proc_{processor}.dat")");
    CHECK_THAT(msg, Catch::Contains("rtl_testbench.memory_files[0].name"));
    CHECK_THAT(msg, Catch::Contains("{part}"));
}

TEST_CASE("rtl_testbench: an unknown memory is refused", "[config][rtl]") {
    const std::string msg = test::config_error_after_edit(AI8XSIM_SOURCE_DIR "/configs/max78000.yaml",
                                                          R"(- memory: kernel)", "- memory: tram");
    CHECK_THAT(msg, Catch::Contains("rtl_testbench.memory_files[1].memory"));
    CHECK_THAT(msg, Catch::Contains("'tram'"));
}
