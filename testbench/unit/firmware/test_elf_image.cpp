// ELF loading and PC -> symbol naming.
#include <catch2/catch.hpp>

#include <elf.h>

#include <cstring>
#include <fstream>

#include "testbench/unit/firmware/test_board.h"
#include "testbench/unit/fuzz_regression.h"
#include "build_paths.h"

using namespace ai8x;

TEST_CASE("symbols name addresses inside functions", "[elf]") {
    DeviceConfig cfg = test::board_config();
    ElfImage img = ElfImage::load(test::build_example(cfg, "bus_fault"));
    uint32_t f = img.symbol_address("read_nowhere");
    CHECK(img.describe(f) == "read_nowhere");
    CHECK(img.describe(f + 2) == "read_nowhere+0x2");
    CHECK(img.entry() == (img.symbol_address("Reset_Handler") | 1));
    CHECK_FALSE(img.segments().empty());
}

TEST_CASE("a file that is not an ELF is refused with its name", "[elf]") {
    const std::string path = std::string(AI8XSIM_BINARY) + ".not-an-elf";
    std::ofstream(path) << "hello";
    try {
        ElfImage::load(path);
        FAIL("loaded a text file");
    } catch (const ElfError& e) {
        CHECK(std::string(e.what()).find(path) != std::string::npos);
    }
    CHECK_THROWS_AS(ElfImage::load(path + ".missing"), ElfError);
}

TEST_CASE("the image lists variables, sections and the linker script's markers", "[elf]") {
    DeviceConfig cfg = test::board_config();
    ElfImage img = ElfImage::load(test::build_example(cfg, "buffer_overrun"));
    // ml_data32 is int32_t[(40 + 3) / 4] in the example's main.c.
    const auto buffer = img.symbol("ml_data32");
    REQUIRE(buffer);
    CHECK(buffer->object);
    CHECK(buffer->size == 40);
    const auto inside = img.object_at(buffer->address + 39);
    REQUIRE(inside);
    CHECK(inside->name == "ml_data32");
    CHECK_FALSE(img.object_at(img.symbol_address("unload_outputs")));  // code is no variable
    const auto function = img.function_at(img.symbol_address("unload_outputs") + 2);
    REQUIRE(function);
    CHECK(function->name == "unload_outputs");
    // Markers from firmware/startup/sections.ld, in layout order.
    const auto bss_end = img.find_symbol("__bss_end"), heap = img.find_symbol("__heap_start");
    const auto limit = img.find_symbol("__stack_limit"), top = img.find_symbol("__stack_top");
    REQUIRE((bss_end && heap && limit && top));
    CHECK(*heap == *bss_end);
    CHECK(*limit < *top);
    bool bss = false;
    for (const auto& s : img.sections())
        if (s.name == ".bss") {
            bss = true;
            CHECK(s.nobits);
            CHECK(s.writable);
            CHECK(buffer->address >= s.address);
            CHECK(buffer->address + buffer->size <= s.address + s.size);
        }
    CHECK(bss);
    const auto objects = img.objects_in(buffer->address, buffer->address + buffer->size);
    REQUIRE(objects.size() == 1);
    CHECK(objects[0].name == "ml_data32");
}

// Found by fuzz_elf: a 1 KiB file whose loadable segment claims 4 GiB of zero
// fill (p_memsz 0xffffffff) made the loader allocate and clear all of it.
TEST_CASE("a segment reaching past the 32-bit address space is refused without allocating it", "[elf][fuzz]") {
    const std::vector<uint8_t> file = test::fuzz_regression_bytes("fuzz_elf", "zero-fill-past-4gib");
    try {
        ElfImage::parse(file, "zero-fill.elf", EM_RISCV);
        FAIL("loaded a segment that wraps around the address space");
    } catch (const ElfError& e) {
        CHECK_THAT(e.what(), Catch::Contains("zero-fill.elf") && Catch::Contains("32-bit address space"));
    }
}

TEST_CASE("a segment's zero fill is a size, not stored bytes", "[elf][fuzz]") {
    std::vector<uint8_t> file = test::fuzz_regression_bytes("fuzz_elf", "zero-fill-past-4gib");
    // Keep the first program header's LOAD segment (at 0x10000) inside the
    // address space but still claiming 3.75 GiB; drop the corrupt third header.
    Elf32_Ehdr eh;
    std::memcpy(&eh, file.data(), sizeof eh);
    eh.e_phnum = 2;
    std::memcpy(file.data(), &eh, sizeof eh);
    Elf32_Phdr ph;
    const size_t at = eh.e_phoff + eh.e_phentsize;
    std::memcpy(&ph, file.data() + at, sizeof ph);
    REQUIRE(ph.p_type == PT_LOAD);
    ph.p_memsz = 0xf0000000u;
    std::memcpy(file.data() + at, &ph, sizeof ph);

    const ElfImage img = ElfImage::parse(file, "zero-fill.elf", EM_RISCV);
    REQUIRE(img.segments().size() == 1);
    CHECK(img.segments()[0].address == ph.p_paddr);
    CHECK(img.segments()[0].size == 0xf0000000u);
    CHECK(img.segments()[0].bytes.size() == ph.p_filesz);
}
