// libFuzzer harness: the bus-trace text format (docs/trace-format.md), as
// `ai8xsim replay` reads it. A trace that parses must also survive the
// recorder's formatter: every command, written back as a line, parses to the
// same command (the recorder and the parser agree on the format).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "testbench/fuzz/fuzz_support.h"
#include "tlm/trace_command.h"
#include "tlm/trace_parser.h"
#include "tlm/trace_word_file.h"

namespace {

// load/check name memory images relative to the trace's folder: give the
// fuzzer one text and one binary image to find there.
const std::string& image_dir() {
    static const std::string dir = [] {
        const std::string d = ai8x::fuzz::scratch_dir("trace");
        ai8x::write_word_file(d + "/image.hex", {0x11223344u, 0x55667788u});
        ai8x::write_word_file(d + "/image.bin", {0xdeadbeefu});
        return d;
    }();
    return dir;
}

bool same(const ai8x::TraceCommand& a, const ai8x::TraceCommand& b) {
    return a.op == b.op && a.address == b.address && a.size == b.size && a.value == b.value && a.mask == b.mask &&
           a.timeout_ps == b.timeout_ps && a.length == b.length && a.file == b.file && a.words == b.words;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    ai8x::Trace trace;
    try {
        trace = ai8x::parse_trace_text(text, "fuzz.trace", image_dir());
    } catch (const ai8x::TraceParseError&) {
        return 0;  // a clear message is the expected outcome for bad input
    }
    for (const ai8x::TraceCommand& cmd : trace.commands) {
        const std::string line = ai8x::format_trace_command(cmd);
        ai8x::Trace again;
        try {
            again = ai8x::parse_trace_text(line, "formatted", image_dir());
        } catch (const ai8x::TraceParseError& e) {
            ai8x::fuzz::fail("formatted line does not parse back: '" + line + "': " + e.what());
        }
        if (again.commands.size() != 1 || !same(cmd, again.commands[0]))
            ai8x::fuzz::fail("formatted line parses to a different command: '" + line + "'");
    }
    return 0;
}
