// In-memory form of a bus trace (docs/trace-format.md): what the parser
// produces, what the player executes and what the recorder writes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ai8x {

enum class TraceOp {
    Write,    // write<8|16|32> ADDR VALUE
    Read,     // read<8|16|32>  ADDR EXPECTED [MASK]
    Poll,     // poll<8|16|32>  ADDR EXPECTED [MASK] TIMEOUT
    WaitIrq,  // wait_irq TIMEOUT
    Load,     // load  ADDR FILE
    Dump,     // dump  ADDR LENGTH FILE
    Check,    // check ADDR FILE
};

struct TraceCommand {
    TraceOp op = TraceOp::Write;
    unsigned line = 0;  // 1-based line in the trace file, for messages
    uint64_t address = 0;
    unsigned size = 4;            // access width in bytes (write/read/poll)
    uint32_t value = 0;           // data written, or value expected after masking
    uint32_t mask = 0xffffffffu;  // bits compared by read/poll
    uint64_t timeout_ps = 0;      // poll, wait_irq
    uint64_t length = 0;          // dump: bytes
    std::string file;             // load/dump/check: as written in the trace
    std::string path;             // ... resolved against the trace's folder
    std::vector<uint32_t> words;  // load/check: file contents, read at parse time
};

struct Trace {
    std::string source;  // file name used in messages
    std::vector<TraceCommand> commands;
};

// Mnemonic as written in a trace ("write32", "wait_irq", ...).
std::string trace_mnemonic(const TraceCommand& cmd);

// One trace line (without newline) that parses back to `cmd`.
std::string format_trace_command(const TraceCommand& cmd);

}  // namespace ai8x
