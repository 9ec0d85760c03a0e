#include "firmware/host/gdb_packet.h"

namespace ai8x::gdb {

namespace {

constexpr char kEscape = '}';
constexpr char kEscapeXor = 0x20;
constexpr char kInterruptByte = 0x03;

bool needs_escape(char c) { return c == '$' || c == '#' || c == '}' || c == '*'; }

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

const char kDigits[] = "0123456789abcdef";

}  // namespace

uint8_t checksum(const std::string& payload) {
    uint8_t sum = 0;
    for (char c : payload) sum = uint8_t(sum + uint8_t(c));
    return sum;
}

std::string escape(const std::string& data) {
    std::string out;
    out.reserve(data.size());
    for (char c : data) {
        if (needs_escape(c)) {
            out += kEscape;
            out += char(c ^ kEscapeXor);
        } else {
            out += c;
        }
    }
    return out;
}

std::string unescape(const std::string& data) {
    std::string out;
    out.reserve(data.size());
    for (size_t i = 0; i < data.size(); ++i) {
        if (data[i] == kEscape && i + 1 < data.size())
            out += char(data[++i] ^ kEscapeXor);
        else
            out += data[i];
    }
    return out;
}

std::string frame(const std::string& payload) {
    const uint8_t sum = checksum(payload);
    std::string out = "$" + payload + "#";
    out += kDigits[sum >> 4];
    out += kDigits[sum & 15];
    return out;
}

std::string to_hex(const uint8_t* data, size_t size) {
    std::string out;
    out.reserve(2 * size);
    for (size_t i = 0; i < size; ++i) {
        out += kDigits[data[i] >> 4];
        out += kDigits[data[i] & 15];
    }
    return out;
}

std::string to_hex(const std::string& bytes) {
    return to_hex(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

std::optional<std::vector<uint8_t>> from_hex(const std::string& text) {
    if (text.size() % 2) return std::nullopt;
    std::vector<uint8_t> out(text.size() / 2);
    for (size_t i = 0; i < out.size(); ++i) {
        const int hi = hex_digit(text[2 * i]), lo = hex_digit(text[2 * i + 1]);
        if (hi < 0 || lo < 0) return std::nullopt;
        out[i] = uint8_t(hi << 4 | lo);
    }
    return out;
}

std::optional<uint64_t> parse_hex(const std::string& text) {
    if (text.empty() || text.size() > 16) return std::nullopt;
    uint64_t v = 0;
    for (char c : text) {
        const int d = hex_digit(c);
        if (d < 0) return std::nullopt;
        v = v << 4 | uint64_t(d);
    }
    return v;
}

std::string le32_hex(uint32_t value) {
    const uint8_t bytes[4] = {uint8_t(value), uint8_t(value >> 8), uint8_t(value >> 16), uint8_t(value >> 24)};
    return to_hex(bytes, 4);
}

std::optional<uint32_t> parse_le32_hex(const std::string& text) {
    const auto bytes = from_hex(text);
    if (!bytes || bytes->size() != 4) return std::nullopt;
    return uint32_t((*bytes)[0]) | uint32_t((*bytes)[1]) << 8 | uint32_t((*bytes)[2]) << 16 |
           uint32_t((*bytes)[3]) << 24;
}

void Decoder::feed(const char* data, size_t size, std::vector<Event>& out) {
    for (size_t i = 0; i < size; ++i) {
        const char c = data[i];
        switch (state_) {
            case kIdle:
                if (c == '$') {
                    payload_.clear();
                    state_ = kPayload;
                } else if (c == '+') {
                    out.push_back({Event::kAck, {}});
                } else if (c == '-') {
                    out.push_back({Event::kNack, {}});
                } else if (c == kInterruptByte) {
                    out.push_back({Event::kInterrupt, {}});
                }
                break;
            case kPayload:
                // A '#' inside binary data is always escaped, so this one ends the payload.
                if (c == '#')
                    state_ = kChecksum1;
                else
                    payload_ += c;
                break;
            case kChecksum1:
                sum_text_.assign(1, c);
                state_ = kChecksum2;
                break;
            case kChecksum2: {
                sum_text_ += c;
                state_ = kIdle;
                const auto sum = parse_hex(sum_text_);
                if (sum && *sum == checksum(payload_))
                    out.push_back({Event::kPacket, payload_});
                else
                    out.push_back({Event::kBadChecksum, {}});
                break;
            }
        }
    }
}

}  // namespace ai8x::gdb
