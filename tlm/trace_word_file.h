// Memory images used by the trace commands load, dump and check. A file whose
// name ends in ".hex" is text: 32-bit hexadecimal words separated by white
// space, '#' starts a comment. Any other file is raw little-endian bytes whose
// length is a multiple of four.
#pragma once

#include <cstdint>
#include <istream>
#include <stdexcept>
#include <string>
#include <vector>

namespace ai8x {

// Unreadable or malformed image; what() names the file (and line for text).
struct WordFileError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Reads a regular file: a device or pipe named by a trace could block or never end.
std::vector<uint32_t> read_word_file(const std::string& path);
// The same formats from a stream; `name` picks the format (".hex" suffix) and names it in messages.
std::vector<uint32_t> read_word_stream(std::istream& in, const std::string& name);
void write_word_file(const std::string& path, const std::vector<uint32_t>& words);

}  // namespace ai8x
