// The RTL testbench's memory files ($readmemh text): the generator's preload
// and expected lines, the 72-bit kernel words, x digits, comments, and every
// malformed line named by file and line; the dump format verify-output.py reads.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "app/rtl_memory_file.h"

using namespace ai8x;

namespace {

std::vector<MemoryFileWord> read(const std::string& text, unsigned bits = 32) {
    std::istringstream in(text);
    return read_memory_file(in, "t.dat", bits);
}

std::string error_of(const std::string& text, unsigned bits = 32) {
    try {
        read(text, bits);
    } catch (const MemoryFileError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("rtl memory file: @address lines as the generator writes them", "[rtl]") {
    const auto w = read("@0800 0f121200\n@0801 000a000d\n\n@0a00 ffffffff\n");
    REQUIRE(w.size() == 3);
    CHECK(w[0].address == 0x800);
    CHECK(w[0].value[0] == 0x0f121200);
    CHECK(w[0].known[0] == 0xffffffff);
    CHECK(w[1].address == 0x801);
    CHECK(w[2].address == 0xa00);
    CHECK(w[2].line == 4);
}

TEST_CASE("rtl memory file: values run on from the last address, comments are skipped", "[rtl]") {
    const auto w = read("// header\n@10 1 2 /* two\nlines */ 3\n4 // four\n");
    REQUIRE(w.size() == 4);
    CHECK(w[0].address == 0x10);
    CHECK(w[3].address == 0x13);
    CHECK(w[3].value[0] == 4);
    CHECK(w[3].line == 4);
}

TEST_CASE("rtl memory file: x digits are unknown bits", "[rtl]") {
    const auto w = read("@0 XXXX12ab\n");
    REQUIRE(w.size() == 1);
    CHECK(w[0].value[0] == 0x12ab);
    CHECK(w[0].known[0] == 0x0000ffff);
}

TEST_CASE("rtl memory file: 72-bit kernel words with underscores", "[rtl]") {
    const auto w = read("@02ff 81_02030405_06070809\n", 72);
    REQUIRE(w.size() == 1);
    CHECK(w[0].address == 0x2ff);
    CHECK(w[0].value[1] == 0x81);
    CHECK(w[0].value[0] == 0x0203040506070809ull);
    CHECK(w[0].digits == 18);
}

TEST_CASE("rtl memory file: malformed lines are named by file and line", "[rtl]") {
    CHECK(error_of("@0 00000001\n@0 0000000g\n") == "t.dat:2: value '0000000g' is not hexadecimal");
    CHECK(error_of("@zz 1\n") == "t.dat:1: address '@zz' is not hexadecimal");
    CHECK(error_of("\n\n@ 1\n") == "t.dat:3: '@' without an address");
    CHECK(error_of("@0 100000000\n") == "t.dat:1: value '100000000' does not fit a 32-bit word of this memory");
    CHECK(error_of("@0 1 /* open\n\n") == "t.dat:1: comment /* is never closed");
    // Leading zeros beyond the width are harmless.
    CHECK(error_of("@0 000000001\n").empty());
}

TEST_CASE("rtl memory file: dumps are one word per line, unwritten words x", "[rtl]") {
    const uint32_t words[] = {0x0f121200, 0xdeadbeef, 7};
    const uint8_t written[] = {1, 0, 1};
    std::ostringstream out;
    write_memory_dump(out, words, written, 3);
    CHECK(out.str() == "0f121200\nxxxxxxxx\n00000007\n");
}
