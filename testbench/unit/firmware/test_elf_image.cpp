// ELF loading and PC -> symbol naming.
#include <catch2/catch.hpp>

#include <fstream>

#include "testbench/unit/firmware/test_board.h"

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
