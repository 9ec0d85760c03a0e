#include "tlm/trace_player.h"

#include <cstdio>

#include <spdlog/spdlog.h>

#include "tlm/trace_word_file.h"

namespace ai8x {

namespace {

std::string hex32(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%08llx", static_cast<unsigned long long>(v));
    return buf;
}

sc_core::sc_time from_ps(uint64_t ps) { return sc_core::sc_time(static_cast<double>(ps), sc_core::SC_PS); }

}  // namespace

TracePlayer::TracePlayer(sc_core::sc_module_name name, Trace trace)
    : sc_core::sc_module(name),
      socket("socket"),
      irq_in("irq", [this](bool level) { irq(level); }),
      trace_(std::move(trace)) {
    SC_HAS_PROCESS(TracePlayer);
    SC_THREAD(run);
}

void TracePlayer::irq(bool level) {
    if (level && !irq_level_) {
        ++irq_pending_;
        irq_event_.notify(sc_core::SC_ZERO_TIME);
    }
    irq_level_ = level;
}

void TracePlayer::run() {
    for (const TraceCommand& cmd : trace_.commands) {
        execute(cmd);
        ++result_.commands_executed;
    }
    result_.finished = true;
    spdlog::debug("{}: trace {} done, {} command(s), {} failure(s)", name(), trace_.source, result_.commands_executed,
                  result_.failures.size());
    if (stop_when_done_) sc_core::sc_stop();
}

void TracePlayer::execute(const TraceCommand& cmd) {
    switch (cmd.op) {
        case TraceOp::Write: do_write(cmd); break;
        case TraceOp::Read: do_read(cmd); break;
        case TraceOp::Poll: do_poll(cmd); break;
        case TraceOp::WaitIrq: do_wait_irq(cmd); break;
        case TraceOp::Load: do_load(cmd); break;
        case TraceOp::Dump: do_dump(cmd); break;
        case TraceOp::Check: do_check(cmd); break;
    }
}

bool TracePlayer::access(const TraceCommand& cmd, tlm::tlm_command op, uint64_t address, unsigned size,
                         uint32_t& data) {
    unsigned char bytes[4] = {static_cast<unsigned char>(data), static_cast<unsigned char>(data >> 8),
                              static_cast<unsigned char>(data >> 16), static_cast<unsigned char>(data >> 24)};
    tlm::tlm_generic_payload gp;
    gp.set_command(op);
    gp.set_address(address);
    gp.set_data_ptr(bytes);
    gp.set_data_length(size);
    gp.set_streaming_width(size);
    gp.set_byte_enable_ptr(nullptr);
    gp.set_dmi_allowed(false);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(gp, delay);
    // Stay in step with the bus: the next command starts when this one has finished.
    wait(delay);
    if (gp.is_response_error()) {
        fail(cmd, address, 0, 0, 0, std::string("bus answered ") + gp.get_response_string());
        return false;
    }
    if (op == tlm::TLM_READ_COMMAND) {
        data = 0;
        for (unsigned i = 0; i < size; ++i) data |= static_cast<uint32_t>(bytes[i]) << (8 * i);
    }
    return true;
}

void TracePlayer::fail(const TraceCommand& cmd, uint64_t address, uint32_t expected, uint32_t actual, uint32_t mask,
                       const std::string& what) {
    TraceFailure f;
    f.line = cmd.line;
    f.command = trace_mnemonic(cmd);
    f.address = address;
    f.expected = expected;
    f.actual = actual;
    f.mask = mask;
    f.message = trace_.source + ":" + std::to_string(cmd.line) + ": " + f.command;
    if (cmd.op != TraceOp::WaitIrq) f.message += " at " + hex32(address);
    f.message += ": " + what;
    spdlog::debug("{}", f.message);
    result_.failures.push_back(std::move(f));
}

void TracePlayer::do_write(const TraceCommand& cmd) {
    uint32_t data = cmd.value;
    access(cmd, tlm::TLM_WRITE_COMMAND, cmd.address, cmd.size, data);
}

void TracePlayer::do_read(const TraceCommand& cmd) {
    uint32_t data = 0;
    if (!access(cmd, tlm::TLM_READ_COMMAND, cmd.address, cmd.size, data)) return;
    if ((data & cmd.mask) != (cmd.value & cmd.mask)) {
        fail(cmd, cmd.address, cmd.value, data, cmd.mask,
             "expected " + hex32(cmd.value) + " (mask " + hex32(cmd.mask) + "), got " + hex32(data));
    }
}

void TracePlayer::do_poll(const TraceCommand& cmd) {
    const sc_core::sc_time deadline = sc_core::sc_time_stamp() + from_ps(cmd.timeout_ps);
    uint32_t data = 0;
    for (;;) {
        if (!access(cmd, tlm::TLM_READ_COMMAND, cmd.address, cmd.size, data)) return;
        if ((data & cmd.mask) == (cmd.value & cmd.mask)) return;
        if (sc_core::sc_time_stamp() >= deadline) break;
        wait(poll_interval_);
    }
    fail(cmd, cmd.address, cmd.value, data, cmd.mask,
         "expected " + hex32(cmd.value) + " (mask " + hex32(cmd.mask) + ") within " +
             from_ps(cmd.timeout_ps).to_string() + ", last read " + hex32(data));
}

void TracePlayer::do_wait_irq(const TraceCommand& cmd) {
    if (irq_pending_ == 0) wait(from_ps(cmd.timeout_ps), irq_event_);
    if (irq_pending_ == 0) {
        fail(cmd, 0, 1, 0, 0, "no interrupt within " + from_ps(cmd.timeout_ps).to_string());
        return;
    }
    --irq_pending_;
}

void TracePlayer::do_load(const TraceCommand& cmd) {
    for (std::size_t i = 0; i < cmd.words.size(); ++i) {
        uint32_t data = cmd.words[i];
        if (!access(cmd, tlm::TLM_WRITE_COMMAND, cmd.address + 4 * i, 4, data)) return;
    }
}

void TracePlayer::do_dump(const TraceCommand& cmd) {
    std::vector<uint32_t> words(cmd.length / 4);
    for (std::size_t i = 0; i < words.size(); ++i) {
        if (!access(cmd, tlm::TLM_READ_COMMAND, cmd.address + 4 * i, 4, words[i])) return;
    }
    try {
        write_word_file(cmd.path, words);
    } catch (const WordFileError& e) {
        result_.errors.push_back(trace_.source + ":" + std::to_string(cmd.line) + ": dump: " + e.what());
    }
}

void TracePlayer::do_check(const TraceCommand& cmd) {
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < cmd.words.size(); ++i) {
        const uint64_t address = cmd.address + 4 * i;
        uint32_t data = 0;
        if (!access(cmd, tlm::TLM_READ_COMMAND, address, 4, data)) return;
        if (data == cmd.words[i]) continue;
        if (++mismatches <= kMaxMismatchesPerCheck) {
            fail(cmd, address, cmd.words[i], data, 0xffffffffu,
                 "expected " + hex32(cmd.words[i]) + " (" + cmd.file + " word " + std::to_string(i) + "), got " +
                     hex32(data));
        }
    }
    if (mismatches > kMaxMismatchesPerCheck) {
        fail(cmd, cmd.address, 0, 0, 0,
             std::to_string(mismatches - kMaxMismatchesPerCheck) + " more word(s) differ from " + cmd.file);
    }
}

}  // namespace ai8x
