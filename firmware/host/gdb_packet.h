// Framing of the GDB remote serial protocol, without any socket: checksums,
// escaping, hex, and a decoder that turns the byte stream from GDB into
// packets, acknowledgements and interrupt requests. Kept apart from the
// socket and from the CPU so that it can be tested on its own.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ai8x::gdb {

// Modulo-256 sum of the payload bytes, as carried after '#'.
uint8_t checksum(const std::string& payload);

// "$payload#cs". GDB unescapes only the packets that carry binary data, so
// the payload is sent as given: escape() such data before framing it.
std::string frame(const std::string& payload);

// Binary data (qXfer replies): '$', '#', '}' and '*' become '}' and the byte XOR 0x20.
std::string escape(const std::string& data);
// Binary data received (X packets): undoes escape().
std::string unescape(const std::string& data);

std::string to_hex(const uint8_t* data, size_t size);
std::string to_hex(const std::string& bytes);
// Two hex digits per byte; nothing on an odd length or a non-hex digit.
std::optional<std::vector<uint8_t>> from_hex(const std::string& text);
// A hex number such as "2000fffc"; nothing when empty, not hex or wider than 64 bits.
std::optional<uint64_t> parse_hex(const std::string& text);
// 32-bit value as the 8 hex digits of its little-endian bytes (register format).
std::string le32_hex(uint32_t value);
std::optional<uint32_t> parse_le32_hex(const std::string& text);

// Splits the byte stream GDB sends into events. Bytes between packets other
// than acknowledgements and the interrupt byte are ignored (line noise).
class Decoder {
public:
    struct Event {
        enum Kind { kPacket, kBadChecksum, kAck, kNack, kInterrupt } kind;
        std::string payload;  // kPacket: the payload, escapes still in place
    };

    // Feeds received bytes; complete events are appended to `out`.
    void feed(const char* data, size_t size, std::vector<Event>& out);

private:
    enum State { kIdle, kPayload, kChecksum1, kChecksum2 } state_ = kIdle;
    std::string payload_;
    std::string sum_text_;
};

}  // namespace ai8x::gdb
