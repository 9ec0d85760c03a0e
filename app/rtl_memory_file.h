// The memory files of the vendor's RTL testbench (data/*.dat preloads,
// data-expected/*.dat, masks/*.dat; docs/rtl-flow.md): Verilog $readmemh text.
// "@ADDR" (hex) sets the word address, every other token is the value of the
// next word; '_' separates digits, x/z digits are unknown (expected dumps mask
// them), // and /* */ are comments. The dumps are written one word per line
// from word 0, unwritten words as x, which is what the folders' verify-output.py
// reads back.
#pragma once

#include <cstdint>
#include <istream>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace ai8x {

// A malformed file; what() is "file:line: what is wrong".
struct MemoryFileError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// One word of a memory file, up to 128 bits. `known` has a 1 for every bit
// that was given as a digit (0 under an x or z digit).
struct MemoryFileWord {
    unsigned line = 0;           // line of the file the value stands on
    uint64_t address = 0;        // word address
    uint64_t value[2] = {0, 0};  // [0] bits 63..0, [1] bits 127..64
    uint64_t known[2] = {0, 0};
    unsigned digits = 0;  // hex digits given (the file's word width / 4)
};

// Every word of the file, in file order. `max_bits` is the memory's word width:
// a value with more significant digits than fit is an error naming the line.
std::vector<MemoryFileWord> read_memory_file(std::istream& in, const std::string& name, unsigned max_bits);
// The same from a path; a file that cannot be opened is an error naming it.
std::vector<MemoryFileWord> read_memory_file(const std::string& path, unsigned max_bits);

// Dump of `words` 32-bit words, one per line, eight lower-case hex digits; a
// word with written[i] == 0 is written as xxxxxxxx (it holds no value in the RTL).
void write_memory_dump(std::ostream& out, const uint32_t* words, const uint8_t* written, uint32_t count);

}  // namespace ai8x
