// GDB remote serial protocol commands applied to the virtual Cortex-M4:
// registers, memory (flash/SRAM directly, the accelerator and peripherals
// through the bus's debug transport), breakpoints, watchpoints, step,
// continue, interrupt, detach and kill. One thread (the CPU), all-stop mode.
// The packet framing and the socket are gdb_packet.h and gdb_server.h.
#pragma once

#include <optional>
#include <string>

#include "firmware/host/cortex_m4.h"
#include "firmware/host/cpu_debug.h"
#include "firmware/host/gdb_server.h"

namespace ai8x {

class GdbStub : public CpuDebugger {
public:
    // Attaches itself to `cpu`, which then waits at reset for GDB to connect.
    GdbStub(gdb::Server& server, CortexM4& cpu);

    void stopped(const DebugStop& why) override;
    bool interrupt_requested() override;

    // The run has ended with `exit_code` (ai8xsim run's): GDB, if it is
    // waiting for the target, learns that the program exited ("W" packet).
    void finish(int exit_code);
    // GDB sent kill: the CPU is halted and the simulation stopped.
    bool killed() const { return killed_; }

    // The target description GDB reads with qXfer:features:read:target.xml.
    static const std::string& target_xml();

private:
    // Answers one packet. Empty reply = unsupported; nothing = no reply now
    // (the target resumes, or the session ends).
    std::optional<std::string> answer(const std::string& packet);
    std::string stop_reply(const DebugStop& why) const;
    std::string query(const std::string& packet);
    std::string read_memory(const std::string& args);
    std::string write_memory(const std::string& args, bool binary);
    std::string breakpoint(const std::string& args, bool insert);
    std::optional<std::string> resume(const std::string& action, const std::string& address);
    std::optional<std::string> v_packet(const std::string& packet);
    void end_session(const char* why);
    void kill();

    gdb::Server& server_;
    CortexM4& cpu_;
    DebugStop last_stop_;
    bool running_ = false;  // GDB waits for a stop reply
    bool resumed_ = false;  // answer() resumed the CPU: stop serving
    bool ended_ = false;    // detached, killed or disconnected
    bool killed_ = false;
};

}  // namespace ai8x
