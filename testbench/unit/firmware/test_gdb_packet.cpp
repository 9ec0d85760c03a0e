// The GDB remote protocol's framing (firmware/host/gdb_packet.h), without a
// socket or a GDB: checksums, escaping, hex, and the receive-side decoder.
// Expected bytes are worked out by hand from the protocol's rules.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "firmware/host/gdb_packet.h"

using namespace ai8x::gdb;

namespace {

std::vector<Decoder::Event> decode(Decoder& d, const std::string& bytes) {
    std::vector<Decoder::Event> out;
    d.feed(bytes.data(), bytes.size(), out);
    return out;
}

}  // namespace

TEST_CASE("gdb packet: checksum is the byte sum modulo 256", "[gdb]") {
    CHECK(checksum("") == 0);
    CHECK(checksum("OK") == 0x4f + 0x4b);  // 'O' + 'K' = 0x9a
    // 0xff + 0xff + 0x02 = 0x200 -> wraps to 0
    CHECK(checksum(std::string("\xff\xff\x02", 3)) == 0);
}

TEST_CASE("gdb packet: frame puts the checksum as two lower-case hex digits", "[gdb]") {
    CHECK(frame("OK") == "$OK#9a");
    CHECK(frame("") == "$#00");
    CHECK(frame("g") == "$g#67");  // 'g' = 0x67
    // A reply whose sum has a leading zero digit: "\x01" -> 01
    CHECK(frame(std::string(1, '\x01')) == std::string("$\x01#01"));
}

TEST_CASE("gdb packet: binary escaping of $ # } * and its inverse", "[gdb]") {
    const std::string raw = std::string("a}b#c$d*e\0f", 11);
    // '}' 0x7d^0x20 = ']', '#' 0x23^0x20 = 0x03, '$' 0x24^0x20 = 0x04, '*' 0x2a^0x20 = 0x0a
    const std::string expected = std::string(
        "a}]b}\x03"
        "c}\x04"
        "d}\x0a"
        "e\0f",
        15);
    CHECK(escape(raw) == expected);
    CHECK(unescape(expected) == raw);
    CHECK(escape("plain text 123") == "plain text 123");
}

TEST_CASE("gdb packet: hex helpers", "[gdb]") {
    const uint8_t bytes[] = {0x00, 0x7f, 0xa5, 0xff};
    CHECK(to_hex(bytes, 4) == "007fa5ff");
    const auto back = from_hex("007fA5ff");
    REQUIRE(back);
    CHECK(*back == std::vector<uint8_t>{0x00, 0x7f, 0xa5, 0xff});
    CHECK_FALSE(from_hex("abc"));  // odd length
    CHECK_FALSE(from_hex("zz"));
    CHECK(parse_hex("2000fffc") == uint64_t(0x2000fffc));
    CHECK_FALSE(parse_hex(""));
    CHECK_FALSE(parse_hex("12g4"));
    CHECK_FALSE(parse_hex("11112222333344445"));  // wider than 64 bits
    // Registers travel as their little-endian bytes.
    CHECK(le32_hex(0x12345678) == "78563412");
    CHECK(parse_le32_hex("78563412") == uint32_t(0x12345678));
    CHECK_FALSE(parse_le32_hex("785634"));
}

TEST_CASE("gdb packet: decoder separates packets, acks and the interrupt byte", "[gdb]") {
    Decoder d;
    const auto events = decode(d, "+$g#67-\x03$m0,4#fd");
    REQUIRE(events.size() == 5);
    CHECK(events[0].kind == Decoder::Event::kAck);
    CHECK(events[1].kind == Decoder::Event::kPacket);
    CHECK(events[1].payload == "g");
    CHECK(events[2].kind == Decoder::Event::kNack);
    CHECK(events[3].kind == Decoder::Event::kInterrupt);
    CHECK(events[4].kind == Decoder::Event::kPacket);
    CHECK(events[4].payload == "m0,4");  // 'm'+'0'+','+'4' = 0x6d+0x30+0x2c+0x34 = 0xfd
}

TEST_CASE("gdb packet: decoder reports a wrong checksum and keeps going", "[gdb]") {
    Decoder d;
    const auto events = decode(d, "$OK#9b$OK#9A");  // upper-case digits are accepted
    REQUIRE(events.size() == 2);
    CHECK(events[0].kind == Decoder::Event::kBadChecksum);
    CHECK(events[1].kind == Decoder::Event::kPacket);
    CHECK(events[1].payload == "OK");
}

TEST_CASE("gdb packet: decoder joins a packet split across reads", "[gdb]") {
    Decoder d;
    CHECK(decode(d, "$qSupp").empty());
    CHECK(decode(d, "orted#3").empty());
    const auto events = decode(d, "7");
    REQUIRE(events.size() == 1);
    CHECK(events[0].kind == Decoder::Event::kPacket);
    CHECK(events[0].payload == "qSupported");
    CHECK(checksum("qSupported") == 0x37);
}

TEST_CASE("gdb packet: escaped binary data keeps its # and $ inside the payload", "[gdb]") {
    // An X packet writing the bytes '#' and '$' sends them escaped.
    const std::string payload = "X0,2:" + escape("#$");
    Decoder d;
    const auto events = decode(d, frame(payload));
    REQUIRE(events.size() == 1);
    REQUIRE(events[0].kind == Decoder::Event::kPacket);
    CHECK(unescape(events[0].payload.substr(5)) == "#$");
}
