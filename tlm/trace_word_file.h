// Memory images used by the trace commands load, dump and check. A file whose
// name ends in ".hex" is text: 32-bit hexadecimal words separated by white
// space, '#' starts a comment. Any other file is raw little-endian bytes whose
// length is a multiple of four.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace ai8x {

// Unreadable or malformed image; what() names the file (and line for text).
struct WordFileError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

std::vector<uint32_t> read_word_file(const std::string& path);
void write_word_file(const std::string& path, const std::vector<uint32_t>& words);

}  // namespace ai8x
