// Executes a parsed trace (docs/trace-format.md) as bus master: one SystemC
// thread issues the commands in order through a TLM-2.0 initiator socket and
// collects every check that did not hold.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "tlm/trace_command.h"
#include "tlm/wire.h"

namespace ai8x {

// A check that did not hold (read/poll/check mismatch, poll or interrupt
// timeout, error response from the bus).
struct TraceFailure {
    unsigned line = 0;
    std::string command;  // mnemonic, e.g. "read32"
    uint64_t address = 0;
    uint32_t expected = 0;
    uint32_t actual = 0;
    uint32_t mask = 0xffffffffu;
    std::string message;  // complete human-readable sentence with all of the above
};

struct TraceResult {
    std::vector<TraceFailure> failures;
    std::vector<std::string> errors;  // problems with the input (e.g. dump file not writable)
    std::size_t commands_executed = 0;
    bool finished = false;  // every command was executed
};

class TracePlayer : public sc_core::sc_module {
public:
    tlm_utils::simple_initiator_socket<TracePlayer, 32> socket;

    TracePlayer(sc_core::sc_module_name name, Trace trace);

    // The interrupt line wait_irq listens to. Rising edges are remembered, so an
    // interrupt that fires before its wait_irq is reached still satisfies it.
    void irq(bool level);
    // The same line as a port, for a board that drives it through a wire.
    WireIn<bool> irq_in;

    // Time between two reads of a poll (default 100 ns).
    void set_poll_interval(const sc_core::sc_time& t) { poll_interval_ = t; }
    // Stop the simulation when the trace is done (default on), so that free-running
    // models do not keep sc_start() from returning.
    void set_stop_when_done(bool stop) { stop_when_done_ = stop; }

    const TraceResult& result() const { return result_; }

private:
    // Mismatches reported per check command; the rest are counted in one line.
    static constexpr std::size_t kMaxMismatchesPerCheck = 16;

    void run();
    void execute(const TraceCommand& cmd);
    void do_write(const TraceCommand& cmd);
    void do_read(const TraceCommand& cmd);
    void do_poll(const TraceCommand& cmd);
    void do_wait_irq(const TraceCommand& cmd);
    void do_load(const TraceCommand& cmd);
    void do_dump(const TraceCommand& cmd);
    void do_check(const TraceCommand& cmd);

    // One bus access; returns false (and records a failure) on an error response.
    bool access(const TraceCommand& cmd, tlm::tlm_command op, uint64_t address, unsigned size, uint32_t& data);
    void fail(const TraceCommand& cmd, uint64_t address, uint32_t expected, uint32_t actual, uint32_t mask,
              const std::string& what);

    Trace trace_;
    TraceResult result_;
    sc_core::sc_time poll_interval_{100, sc_core::SC_NS};
    bool stop_when_done_ = true;
    bool irq_level_ = false;
    unsigned irq_pending_ = 0;
    sc_core::sc_event irq_event_;
};

}  // namespace ai8x
