// Trace parser: every command form, and a precise message for every kind of mistake.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "tlm/trace_number.h"
#include "tlm/trace_parser.h"
#include "testbench/unit/test_support.h"

using namespace ai8x;
namespace fs = std::filesystem;

namespace {

Trace parse(const std::string& text, const std::string& dir = ".") { return parse_trace_text(text, "t.trace", dir); }

// The parse error message for `text`, or "" if it parsed.
std::string error_of(const std::string& text, const std::string& dir = ".") {
    try {
        parse(text, dir);
    } catch (const TraceParseError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("numbers: decimal and hex, overflow rejected", "[trace][parser]") {
    CHECK(parse_number("4096") == 4096u);
    CHECK(parse_number("0x1000") == 4096u);
    CHECK(parse_number("0XfF") == 255u);
    CHECK(parse_number("0xffffffffffffffff") == 0xffffffffffffffffULL);
    CHECK_FALSE(parse_number("0x10000000000000000"));
    CHECK_FALSE(parse_number("18446744073709551616"));
    CHECK_FALSE(parse_number("0x"));
    CHECK_FALSE(parse_number("12a"));
    CHECK_FALSE(parse_number("-1"));
    CHECK_FALSE(parse_number(""));
}

TEST_CASE("durations need a unit and format back exactly", "[trace][parser]") {
    CHECK(parse_duration_ps("10us") == 10'000'000u);
    CHECK(parse_duration_ps("3ms") == 3'000'000'000u);
    CHECK(parse_duration_ps("7ns") == 7'000u);
    CHECK(parse_duration_ps("2s") == 2'000'000'000'000u);
    CHECK_FALSE(parse_duration_ps("10"));
    CHECK_FALSE(parse_duration_ps("us"));
    CHECK_FALSE(parse_duration_ps("10min"));
    CHECK(format_duration_ps(3'000'000'000u) == "3ms");
    CHECK(format_duration_ps(1'500'000u) == "1500ns");
    CHECK(format_duration_ps(1u) == "1ps");
}

TEST_CASE("parser reads every command form", "[trace][parser]") {
    test::ScratchDir dir{"parser"};
    dir.write("img.hex", "# two words\n00000001 deadbeef\n");
    const Trace t = parse(
        "# header comment\n"
        "\n"
        "write32 0x50100000 0x12345678   # trailing comment\n"
        "write16 0x50100002 65535\n"
        "write8  0x50100003 0x7f\n"
        "read32  0x50100000 0x1 0xff\n"
        "read8   0x50100001 0x02\n"
        "poll32  0x50100000 0x100000 0x100000 2ms\n"
        "poll16  0x50100000 0x5 10us\n"
        "wait_irq 1ms\n"
        "load  0x50400000 img.hex\n"
        "dump  0x50400000 16 out.bin\n"
        "check 0x50400000 img.hex\n",
        dir.path.string());
    REQUIRE(t.commands.size() == 11);
    const auto& c = t.commands;
    CHECK(c[0].op == TraceOp::Write);
    CHECK(c[0].line == 3);
    CHECK(c[0].address == 0x50100000u);
    CHECK(c[0].value == 0x12345678u);
    CHECK(c[0].size == 4);
    CHECK(c[1].size == 2);
    CHECK(c[1].value == 0xffffu);
    CHECK(c[2].size == 1);
    CHECK(c[3].op == TraceOp::Read);
    CHECK(c[3].mask == 0xffu);
    CHECK(c[4].mask == 0xffu);  // default mask covers the access width
    CHECK(c[5].op == TraceOp::Poll);
    CHECK(c[5].mask == 0x100000u);
    CHECK(c[5].timeout_ps == 2'000'000'000u);
    CHECK(c[6].mask == 0xffffu);
    CHECK(c[6].timeout_ps == 10'000'000u);
    CHECK(c[7].op == TraceOp::WaitIrq);
    CHECK(c[8].op == TraceOp::Load);
    CHECK(c[8].words == std::vector<uint32_t>{1, 0xdeadbeef});
    CHECK(c[8].path == (dir.path / "img.hex").string());
    CHECK(c[9].op == TraceOp::Dump);
    CHECK(c[9].length == 16);
    CHECK(c[10].op == TraceOp::Check);
    CHECK(c[10].line == 13);
}

TEST_CASE("formatted commands parse back to themselves", "[trace][parser]") {
    const std::string text =
        "write32 0x50100000 0x12345678\n"
        "write8 0x50100003 0x7f\n"
        "read16 0x50100002 0x00ff 0x00f0\n"
        "poll32 0x50100000 0x00000001 3ms\n"
        "wait_irq 250us\n"
        "dump 0x50400000 64 out.bin\n";
    const Trace t = parse(text);
    std::string again;
    for (const auto& cmd : t.commands) again += format_trace_command(cmd) + "\n";
    CHECK(again == text);
}

TEST_CASE("binary images are little-endian words", "[trace][parser]") {
    test::ScratchDir dir{"parser"};
    dir.write("img.bin", std::string("\x01\x02\x03\x04\xaa\xbb\xcc\xdd", 8));
    const Trace t = parse("check 0x20000000 img.bin\n", dir.path.string());
    CHECK(t.commands.at(0).words == std::vector<uint32_t>{0x04030201u, 0xddccbbaau});
}

TEST_CASE("parser reports each malformed line with file, line and what was expected", "[trace][parser]") {
    test::ScratchDir dir{"parser"};
    dir.write("odd.bin", "abc");
    dir.write("bad.hex", "00000001\nxyz\n");
    dir.write("empty.bin", "");
    const std::string d = dir.path.string();
    struct Case {
        std::string text, message;
    };
    const std::vector<Case> cases = {
        {"frobnicate 1 2",
         "t.trace:1: expected a command (write8/16/32, read8/16/32, poll8/16/32, wait_irq, load, dump, check), got "
         "'frobnicate'"},
        {"\n\nwrite24 0x0 1", "t.trace:3: expected write8, write16 or write32, got 'write24'"},
        {"write32 0x1000", "t.trace:1: expected write32 ADDR VALUE, got 1 argument"},
        {"write32 0x1000 1 2", "t.trace:1: expected write32 ADDR VALUE, got 3 arguments"},
        {"write32 0x10zz 1", "t.trace:1: expected ADDR as a decimal or 0x-hexadecimal number, got '0x10zz'"},
        {"write32 0x100000000 1", "t.trace:1: expected ADDR below 2^32, got '0x100000000'"},
        {"write32 0x1002 1", "t.trace:1: expected ADDR aligned to 4 bytes, got '0x1002'"},
        {"write16 0x1001 1", "t.trace:1: expected ADDR aligned to 2 bytes, got '0x1001'"},
        {"write8 0x1000 0x100", "t.trace:1: expected VALUE to fit in 8 bits, got '0x100'"},
        {"read32 0x1000 1 0x1ffffffff", "t.trace:1: expected MASK to fit in 32 bits, got '0x1ffffffff'"},
        {"read32 0x1000", "t.trace:1: expected read32 ADDR EXPECTED [MASK], got 1 argument"},
        {"poll32 0x1000 1", "t.trace:1: expected poll32 ADDR EXPECTED [MASK] TIMEOUT, got 2 arguments"},
        {"poll32 0x1000 1 100",
         "t.trace:1: expected TIMEOUT as a positive integer with unit ps/ns/us/ms/s (e.g. 10us), got '100'"},
        {"wait_irq 0us",
         "t.trace:1: expected TIMEOUT as a positive integer with unit ps/ns/us/ms/s (e.g. 10us), got '0us'"},
        {"wait_irq", "t.trace:1: expected wait_irq TIMEOUT, got 0 arguments"},
        {"dump 0x1000 6 x.bin", "t.trace:1: expected LENGTH to be a non-zero multiple of 4, got '6'"},
        {"dump 0xfffffffc 8 x.bin", "t.trace:1: expected ADDR + LENGTH to stay below 2^32"},
        {"load 0x1002 odd.bin", "t.trace:1: expected ADDR aligned to 4 bytes, got '0x1002'"},
        {"load 0x1000 missing.bin",
         "t.trace:1: expected a readable memory image: " + d + "/missing.bin: cannot open for reading"},
        {"load 0x1000 odd.bin", "t.trace:1: expected a readable memory image: " + d +
                                    "/odd.bin: expected a length that is a multiple of 4 bytes, file has 3"},
        {"check 0x1000 bad.hex", "t.trace:1: expected a readable memory image: " + d +
                                     "/bad.hex:2: expected a 32-bit hexadecimal word, got 'xyz'"},
        {"check 0x1000 empty.bin", "t.trace:1: expected a non-empty memory image in 'empty.bin'"},
    };
    for (const auto& c : cases) {
        INFO("trace text: " << c.text);
        CHECK(error_of(c.text, d) == c.message);
    }
}

TEST_CASE("a missing trace file is reported by name", "[trace][parser]") {
    try {
        parse_trace_file("/nonexistent/x.trace");
        FAIL("parse_trace_file accepted a missing file");
    } catch (const TraceParseError& e) {
        CHECK(std::string(e.what()) == "/nonexistent/x.trace: cannot open trace file");
    }
}

// A device or pipe never ends (or blocks): reading /dev/zero as an image would
// hang the parser and grow without bound. Refused by name, before reading.
TEST_CASE("load/check refuse a memory image that is not a regular file", "[trace][parser]") {
    const std::string msg = error_of("load 0x20000000 /dev/zero\n");
    CHECK_THAT(msg,
               Catch::Contains("t.trace:1") && Catch::Contains("/dev/zero") && Catch::Contains("not a regular file"));
}
