#include "app/rtl_memory_file.h"

#include <cctype>
#include <fstream>

namespace ai8x {

namespace {

[[noreturn]] void fail_memory_file_line(const std::string& name, unsigned line, const std::string& what) {
    throw MemoryFileError(name + ":" + std::to_string(line) + ": " + what);
}

// Splits the file into tokens with their lines, dropping comments.
struct Token {
    std::string text;
    unsigned line;
};

std::vector<Token> tokens_of(std::istream& in, const std::string& name) {
    std::vector<Token> out;
    bool in_block = false;
    unsigned block_line = 0;
    unsigned line_no = 0;
    for (std::string line; std::getline(in, line);) {
        ++line_no;
        std::string word;
        for (size_t i = 0; i <= line.size(); ++i) {
            const char c = i < line.size() ? line[i] : ' ';
            const char next = i + 1 < line.size() ? line[i + 1] : '\0';
            if (in_block) {
                if (c == '*' && next == '/') in_block = false, ++i;
                continue;
            }
            if (c == '/' && (next == '/' || next == '*')) {
                if (!word.empty()) out.push_back({word, line_no}), word.clear();
                if (next == '/') break;
                in_block = true, block_line = line_no, ++i;
                continue;
            }
            if (std::isspace(static_cast<unsigned char>(c))) {
                if (!word.empty()) out.push_back({word, line_no}), word.clear();
            } else {
                word += c;
            }
        }
    }
    if (in_block) fail_memory_file_line(name, block_line, "comment /* is never closed");
    return out;
}

int digit_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    c = char(std::tolower(static_cast<unsigned char>(c)));
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

uint64_t parse_address(const Token& t, const std::string& name) {
    if (t.text.size() < 2) fail_memory_file_line(name, t.line, "'@' without an address");
    uint64_t a = 0;
    for (size_t i = 1; i < t.text.size(); ++i) {
        const char c = t.text[i];
        if (c == '_') continue;
        const int d = digit_value(c);
        if (d < 0) fail_memory_file_line(name, t.line, "address '" + t.text + "' is not hexadecimal");
        if (a >> 60) fail_memory_file_line(name, t.line, "address '" + t.text + "' is too large");
        a = a << 4 | uint64_t(d);
    }
    return a;
}

void shift_in(uint64_t (&v)[2], unsigned nibble) {
    v[1] = v[1] << 4 | v[0] >> 60;
    v[0] = v[0] << 4 | nibble;
}

MemoryFileWord parse_value(const Token& t, const std::string& name, unsigned max_bits) {
    MemoryFileWord w;
    w.line = t.line;
    for (char c : t.text) {
        if (c == '_') continue;
        const char lower = char(std::tolower(static_cast<unsigned char>(c)));
        const bool unknown = lower == 'x' || lower == 'z';
        const int d = digit_value(c);
        if (!unknown && d < 0) fail_memory_file_line(name, t.line, "value '" + t.text + "' is not hexadecimal");
        if (w.digits == 32) fail_memory_file_line(name, t.line, "value '" + t.text + "' has more than 128 bits");
        shift_in(w.value, unknown ? 0 : unsigned(d));
        shift_in(w.known, unknown ? 0 : 0xF);
        ++w.digits;
    }
    if (w.digits == 0) fail_memory_file_line(name, t.line, "value '" + t.text + "' has no digits");
    // Significant (or unknown) bits above the word width do not fit the memory.
    const uint64_t used[2] = {w.value[0] | ~w.known[0], w.value[1] | ~w.known[1]};
    const unsigned nibbles = w.digits;
    for (unsigned bit = max_bits; bit < 4 * nibbles; ++bit)
        if (used[bit / 64] >> (bit % 64) & 1)
            fail_memory_file_line(
                name, t.line,
                "value '" + t.text + "' does not fit a " + std::to_string(max_bits) + "-bit word of this memory");
    return w;
}

}  // namespace

std::vector<MemoryFileWord> read_memory_file(std::istream& in, const std::string& name, unsigned max_bits) {
    std::vector<MemoryFileWord> words;
    uint64_t address = 0;
    for (const Token& t : tokens_of(in, name)) {
        if (t.text[0] == '@') {
            address = parse_address(t, name);
            continue;
        }
        MemoryFileWord w = parse_value(t, name, max_bits);
        w.address = address++;
        words.push_back(w);
    }
    return words;
}

std::vector<MemoryFileWord> read_memory_file(const std::string& path, unsigned max_bits) {
    std::ifstream in(path);
    if (!in) throw MemoryFileError(path + ": cannot open");
    return read_memory_file(in, path, max_bits);
}

void write_memory_dump(std::ostream& out, const uint32_t* words, const uint8_t* written, uint32_t count) {
    static const char hex[] = "0123456789abcdef";
    std::string line(9, '\n');
    for (uint32_t i = 0; i < count; ++i) {
        for (int d = 0; d < 8; ++d) line[size_t(d)] = written[i] ? hex[words[i] >> (28 - 4 * d) & 0xF] : 'x';
        out.write(line.data(), 9);
    }
}

}  // namespace ai8x
