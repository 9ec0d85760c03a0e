// libFuzzer harness: the memory images that trace load/check commands name
// (tlm/trace_word_file.h), in both formats: ".hex" text and raw little-endian
// words. Whatever parses must write back and read back to the same words.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "testbench/fuzz/fuzz_support.h"
#include "tlm/trace_word_file.h"

namespace {

void round_trip(const std::string& input, const std::string& name) {
    std::istringstream in(input);
    std::vector<uint32_t> words;
    try {
        words = ai8x::read_word_stream(in, name);
    } catch (const ai8x::WordFileError&) {
        return;
    }
    static const std::string dir = ai8x::fuzz::scratch_dir("word-image");
    const std::string path = dir + "/" + name;
    ai8x::write_word_file(path, words);
    if (ai8x::read_word_file(path) != words) ai8x::fuzz::fail(name + ": written image reads back different");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string input(reinterpret_cast<const char*>(data), size);
    round_trip(input, "image.hex");
    round_trip(input, "image.bin");
    return 0;
}
