// Dual-core folders (generator option --riscv): the Arm image is main.c alone,
// the RISC-V image everything else; the RISC-V image sits in flash exactly at
// the Arm image's __FlashStart_ (the boot address the Arm hands the core), and
// its data lies in the RISC-V core's share of SRAM. Every --riscv folder of the
// generator-options vectors builds.
#include <catch2/catch.hpp>

#include <elf.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "firmware/host/elf_image.h"
#include "firmware/host/firmware_builder.h"
#include "tlm/device_config.h"
#include "testbench/unit/test_support.h"
#include "build_paths.h"

using namespace ai8x;
namespace fs = std::filesystem;

namespace {

const fs::path kOptions = fs::path(AI8XSIM_SHARED_DIR) / "vectors-max78000-options";

// Folders of kOptions whose INDEX.md row names --riscv among the generator options (last column).
std::vector<fs::path> riscv_folders() {
    std::ifstream in(kOptions / "INDEX.md");
    REQUIRE(in);
    std::vector<fs::path> out;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("| ", 0) != 0) continue;
        const std::string name = line.substr(2, line.find(' ', 2) - 2);
        const std::string options = line.substr(line.rfind('|', line.size() - 2));
        if (options.find("--riscv") != std::string::npos) out.push_back(kOptions / name);
    }
    return out;
}

}  // namespace

TEST_CASE("a dual-core folder splits its sources between the cores", "[builder][riscv]") {
    const fs::path dir = kOptions / "r-riscv-helloworld-661b64";
    REQUIRE(fs::is_directory(dir));
    const auto arm = FirmwareBuilder::firmware_sources(dir.string());
    const auto rv = FirmwareBuilder::riscv_sources(dir.string());
    REQUIRE(arm.size() == 1);
    CHECK(fs::path(arm[0]).filename() == "main.c");
    std::vector<std::string> names;
    for (const auto& s : rv) names.push_back(fs::path(s).filename().string());
    CHECK(names == std::vector<std::string>{"cnn.c", "main_riscv.c"});
    // A single-core folder has no RISC-V sources.
    CHECK(FirmwareBuilder::riscv_sources((fs::path(AI8XSIM_SHARED_DIR) / "vectors" / "demo-mnist-extrasmall").string())
              .empty());
}

TEST_CASE("the RISC-V image starts at the Arm image's __FlashStart_ and keeps to its SRAM", "[builder][riscv]") {
    DeviceConfig cfg = load_device_config(default_device_config_path());
    FirmwareBuilder builder(cfg, ai8x::test::firmware_cache());
    const FirmwareBuild b = builder.build((kOptions / "r-riscv-fastfifo-simple-4e2551").string());
    REQUIRE_FALSE(b.riscv_elf_path.empty());
    const ElfImage arm = ElfImage::load(b.elf_path);
    const ElfImage rv = ElfImage::load(b.riscv_elf_path, EM_RISCV);
    const auto flash_start = arm.find_symbol("__FlashStart_");
    REQUIRE(flash_start);
    CHECK(rv.entry() == *flash_start);  // reset entry = first word of the jump table
    uint32_t lowest_flash = UINT32_MAX, arm_flash_end = 0;
    for (const auto& s : rv.segments())
        if (s.address < cfg.riscv.sram.base) lowest_flash = std::min(lowest_flash, s.address);
    for (const auto& s : arm.segments())
        if (s.address < cfg.riscv.sram.base) arm_flash_end = std::max<uint32_t>(arm_flash_end, s.address + s.size);
    CHECK(lowest_flash == *flash_start);
    CHECK(arm_flash_end <= *flash_start);  // no byte of the two images overlaps
    const auto bss = rv.symbol("ml_data32");
    REQUIRE(bss);
    CHECK(bss->address >= cfg.riscv.sram.base);
    CHECK(bss->address + bss->size <= cfg.riscv.sram.base + cfg.riscv.sram.size);
    // The RISC-V image must not be mistaken for an Arm one.
    CHECK_THROWS_AS(ElfImage::load(b.riscv_elf_path), ElfError);
}

TEST_CASE("every --riscv folder of the generator-options vectors builds", "[builder][riscv][vectors]") {
    const auto dirs = riscv_folders();
    REQUIRE(dirs.size() >= 8);
    DeviceConfig cfg = load_device_config(default_device_config_path());
    FirmwareBuilder builder(cfg, ai8x::test::firmware_cache());
    for (const auto& d : dirs) {
        INFO(d.filename().string());
        try {
            const FirmwareBuild b = builder.build(d.string());
            CHECK(fs::exists(b.riscv_elf_path));
        } catch (const BuildError& e) {
            FAIL(e.what() << "\n" << e.compiler_output.substr(0, 2000));
        }
    }
}

TEST_CASE("a dual-core folder is refused for a device without a RISC-V core description", "[builder][riscv]") {
    // The MAX78002's description with its riscv: section replaced by `riscv: ~`
    // (the overlay removes the base's core): building main_riscv.c for it must
    // stop with a message naming the folder and the file.
    std::ifstream in(AI8XSIM_SOURCE_DIR "/configs/max78002.yaml");
    REQUIRE(in);
    std::string text, line;
    bool in_riscv = false;
    while (std::getline(in, line)) {
        if (line.rfind("riscv:", 0) == 0) {
            in_riscv = true;
            text += "riscv: ~\n";
        } else if (in_riscv && !line.empty() && line[0] != ' ' && line[0] != '#')
            in_riscv = false;
        if (!in_riscv) text += line + "\n";
    }
    ai8x::test::ScratchDir scratch("riscv-refused");
    const fs::path yaml = scratch.path / "max78002-without-riscv.yaml";
    std::ofstream(yaml) << text;
    DeviceConfig cfg = load_device_config(yaml.string());
    REQUIRE_FALSE(cfg.riscv.present);
    FirmwareBuilder builder(cfg, ai8x::test::firmware_cache());
    const fs::path dir = kOptions / "r-riscv-helloworld-661b64";
    try {
        builder.build(dir.string());
        FAIL("the build was not refused");
    } catch (const std::runtime_error& e) {
        const std::string msg = e.what();
        CHECK(msg.find("main_riscv.c") != std::string::npos);
        CHECK(msg.find("max78002-without-riscv.yaml") != std::string::npos);
        CHECK(msg.find("riscv:") != std::string::npos);
    }
}

TEST_CASE("a MAX78002 dual-core folder builds: the RISC-V image in SRAM5, after the Arm's in flash",
          "[builder][riscv][max78002]") {
    // The MSDK's MAX78002 split (max78002_arm.ld, max78002_riscv.ld): the
    // Arm's data and stack below 0x20010000, the RISC-V core's in SRAM5.
    DeviceConfig cfg = load_device_config(AI8XSIM_SOURCE_DIR "/configs/max78002.yaml");
    REQUIRE(cfg.riscv.present);
    FirmwareBuilder builder(cfg, ai8x::test::firmware_cache());
    const fs::path dir = fs::path(AI8XSIM_SHARED_DIR) / "vectors-max78002-options" / "e87-riscv-mnist-2754e5";
    const FirmwareBuild b = builder.build(dir.string());
    REQUIRE_FALSE(b.riscv_elf_path.empty());
    const ElfImage arm = ElfImage::load(b.elf_path);
    const ElfImage rv = ElfImage::load(b.riscv_elf_path, EM_RISCV);
    const auto flash_start = arm.find_symbol("__FlashStart_");
    REQUIRE(flash_start);
    CHECK(rv.entry() == *flash_start);
    // The RISC-V core's data, bss and stack (firmware/riscv/riscv.ld) lie in SRAM5.
    for (const char* name : {"__bss_start", "__bss_end", "__stack_top"}) {
        INFO(name);
        const auto at = rv.find_symbol(name);
        REQUIRE(at);
        CHECK(*at >= 0x20040000u);
        CHECK(*at <= 0x20050000u);
    }
    for (const auto& seg : arm.segments())
        if (seg.address >= 0x20000000u) CHECK(seg.address + seg.size <= 0x20010000u);
}
