// What a debugger (the GDB stub, gdb_stub.h) and the CPU (cortex_m4.h) tell
// each other: why the CPU stopped, and the callbacks the CPU makes.
#pragma once

#include <cstdint>

namespace ai8x {

enum class WatchKind { kWrite, kRead, kAccess };

struct DebugStop {
    enum Kind { kReset, kBreakpoint, kStep, kWatchpoint, kInterrupt } kind = kReset;
    uint32_t data_address = 0;            // kWatchpoint: start of the watched range that was accessed
    WatchKind watch = WatchKind::kWrite;  // kWatchpoint: which kind of watchpoint fired
};

class CpuDebugger {
public:
    virtual ~CpuDebugger() = default;
    // The CPU stopped between two instructions. Called in the CPU's SystemC
    // thread, so simulated time stands still until it returns; the debugger
    // returns after CortexM4::resume(), detach_debugger() or halt().
    virtual void stopped(const DebugStop& why) = 0;
    // Asked now and then while the CPU runs; true stops it (DebugStop::kInterrupt).
    virtual bool interrupt_requested() = 0;
};

}  // namespace ai8x
