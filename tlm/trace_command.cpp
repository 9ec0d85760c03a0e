#include "tlm/trace_command.h"

#include <cstdio>

#include "tlm/trace_number.h"

namespace ai8x {

namespace {

std::string hex(uint64_t v, int digits) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%0*llx", digits, static_cast<unsigned long long>(v));
    return buf;
}

}  // namespace

std::string trace_mnemonic(const TraceCommand& cmd) {
    const std::string bits = std::to_string(cmd.size * 8);
    switch (cmd.op) {
        case TraceOp::Write: return "write" + bits;
        case TraceOp::Read: return "read" + bits;
        case TraceOp::Poll: return "poll" + bits;
        case TraceOp::WaitIrq: return "wait_irq";
        case TraceOp::Load: return "load";
        case TraceOp::Dump: return "dump";
        case TraceOp::Check: return "check";
    }
    return "?";
}

std::string format_trace_command(const TraceCommand& cmd) {
    const int value_digits = static_cast<int>(cmd.size * 2);
    const uint32_t full_mask = cmd.size == 4 ? 0xffffffffu : (1u << (cmd.size * 8)) - 1;
    std::string line = trace_mnemonic(cmd);
    switch (cmd.op) {
        case TraceOp::Write: line += " " + hex(cmd.address, 8) + " " + hex(cmd.value, value_digits); break;
        case TraceOp::Read:
        case TraceOp::Poll:
            line += " " + hex(cmd.address, 8) + " " + hex(cmd.value, value_digits);
            if (cmd.mask != full_mask) line += " " + hex(cmd.mask, value_digits);
            if (cmd.op == TraceOp::Poll) line += " " + format_duration_ps(cmd.timeout_ps);
            break;
        case TraceOp::WaitIrq: line += " " + format_duration_ps(cmd.timeout_ps); break;
        case TraceOp::Load:
        case TraceOp::Check: line += " " + hex(cmd.address, 8) + " " + cmd.file; break;
        case TraceOp::Dump:
            line += " " + hex(cmd.address, 8) + " " + std::to_string(cmd.length) + " " + cmd.file;
            break;
    }
    return line;
}

}  // namespace ai8x
