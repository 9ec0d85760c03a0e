#include "tlm/trace_word_file.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "tlm/trace_number.h"

namespace ai8x {

namespace {

bool is_text_image(const std::string& path) {
    return path.size() >= 4 && path.compare(path.size() - 4, 4, ".hex") == 0;
}

std::vector<uint32_t> read_text_image(const std::string& path, std::istream& in) {
    std::vector<uint32_t> words;
    std::string line;
    for (unsigned lineno = 1; std::getline(in, line); ++lineno) {
        line = line.substr(0, line.find('#'));
        std::istringstream tokens(line);
        std::string token;
        while (tokens >> token) {
            // Words are always hexadecimal here; a 0x prefix is accepted too.
            const std::string digits = token.rfind("0x", 0) == 0 ? token : "0x" + token;
            const auto v = parse_number(digits);
            if (!v || *v > 0xffffffffu) {
                throw WordFileError(path + ":" + std::to_string(lineno) +
                                    ": expected a 32-bit hexadecimal word, got '" + token + "'");
            }
            words.push_back(static_cast<uint32_t>(*v));
        }
    }
    return words;
}

std::vector<uint32_t> read_binary_image(const std::string& path, std::istream& in) {
    const std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (bytes.size() % 4 != 0) {
        throw WordFileError(path + ": expected a length that is a multiple of 4 bytes, file has " +
                            std::to_string(bytes.size()));
    }
    std::vector<uint32_t> words(bytes.size() / 4);
    for (std::size_t i = 0; i < words.size(); ++i) {
        uint32_t w = 0;
        for (int b = 3; b >= 0; --b) w = (w << 8) | static_cast<uint8_t>(bytes[i * 4 + b]);
        words[i] = w;
    }
    return words;
}

}  // namespace

std::vector<uint32_t> read_word_stream(std::istream& in, const std::string& name) {
    return is_text_image(name) ? read_text_image(name, in) : read_binary_image(name, in);
}

std::vector<uint32_t> read_word_file(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
        throw WordFileError(path + ": not a regular file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw WordFileError(path + ": cannot open for reading");
    return read_word_stream(in, path);
}

void write_word_file(const std::string& path, const std::vector<uint32_t>& words) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw WordFileError(path + ": cannot open for writing");
    if (is_text_image(path)) {
        char buf[16];
        for (std::size_t i = 0; i < words.size(); ++i) {
            std::snprintf(buf, sizeof buf, "%08x", words[i]);
            out << buf << ((i % 4 == 3 || i + 1 == words.size()) ? '\n' : ' ');
        }
    } else {
        for (uint32_t w : words) {
            const char bytes[4] = {static_cast<char>(w), static_cast<char>(w >> 8), static_cast<char>(w >> 16),
                                   static_cast<char>(w >> 24)};
            out.write(bytes, 4);
        }
    }
    if (!out.flush()) throw WordFileError(path + ": write failed");
}

}  // namespace ai8x
