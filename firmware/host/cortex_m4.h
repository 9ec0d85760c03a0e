// Cortex-M4 instruction-set simulator (Unicorn 2) as a SystemC/TLM initiator.
// The bus, memory, timing and call-observer machinery it shares with the
// RISC-V core is UnicornCpu (firmware/host/unicorn_cpu.h); each instruction
// costs cpu.timing.cycles_per_instruction clocks of clocks.cpu_hz. The NVIC is
// modelled here (Unicorn has none): exception entry/return follow the ARMv7-M
// architecture (8-word frame, EXC_RETURN).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include <systemc>

#include "firmware/host/cpu_debug.h"
#include "firmware/host/system_control_space.h"
#include "firmware/host/unicorn_cpu.h"
#include "tlm/device_config.h"
#include "tlm/repeated_warnings.h"

namespace ai8x {

class CortexM4 : public UnicornCpu {
public:
    CortexM4(sc_core::sc_module_name name, const DeviceConfig& cfg);

    // External interrupt line `irqn` (NVIC numbering: vector entry irqn + 16).
    void set_irq(unsigned irqn, bool level);

    // Simulator services, called by the simulation-control device.
    void request_sleep();               // WFI: run SystemC time until an interrupt is pending
    void report_unhandled_exception();  // firmware's default handler was reached

    // ---- Debugger (firmware/host/cortex_m4_debug.cpp; memory access is
    // UnicornCpu's debug_read/debug_write). Without one attached none of this
    // is on the execution path.
    // Attach before the simulation starts: the CPU then stops before its first
    // instruction and calls debugger->stopped(). Poll fast-forward goes off for
    // good: a breakpoint or watchpoint in a polling loop sees every pass.
    void attach_debugger(CpuDebugger* debugger) {
        debugger_ = debugger;
        poll_fast_forward().enabled = false;
    }
    // Drops every breakpoint and watchpoint; the CPU runs on freely.
    void detach_debugger();
    // The rest is for use while stopped (inside CpuDebugger::stopped).
    // Registers by number (GDB's m-profile target description): 0-12 r0-r12,
    // 13 sp, 14 lr, 15 pc, 16 xpsr.
    static constexpr int kDebugRegisters = 17;
    uint32_t debug_register(int n);
    void set_debug_register(int n, uint32_t value);
    void add_breakpoint(uint32_t address);
    void remove_breakpoint(uint32_t address);
    void add_watchpoint(uint32_t address, uint32_t size, WatchKind kind);
    void remove_watchpoint(uint32_t address, uint32_t size, WatchKind kind);
    // Leaves stopped() running (continue) or after one instruction (step).
    void resume(bool single_step);

private:
    void run();
    void start_of_simulation() override;
    void map_system_control_space();
    void reset();
    void execute_chunk();
    uint32_t instruction_bytes(uint16_t halfword) const override;
    // Cortex-M4 TRM prices by instruction class (firmware/host/thumb_timing.h).
    uint32_t instruction_cycles(uint16_t hw1, uint16_t hw2, bool& after_access) const override;
    bool idempotent_poll_loop(uint32_t address, uint32_t bytes) override;
    bool between_chunks_idle() const override;
    int return_address_register() const override { return UC_ARM_REG_LR; }
    int return_value_register() const override { return UC_ARM_REG_R0; }

    // Interrupts
    void sample_irq_lines();
    bool take_interrupt();
    void return_from_exception();

    // Debugger
    struct Watch {  // one watchpoint (user data of its memory hook)
        CortexM4* cpu;
        uint32_t address;
        uint32_t size;
        WatchKind kind;
        bool on_bus;       // outside flash/SRAM: checked on the bus path
        uc_hook hook = 0;  // flash/SRAM: the Unicorn memory hook
    };
    void debug_boundary();
    void begin_step();
    void end_step();
    void warn_unmodelled_register(const char* access, uint64_t offset);
    static void hook_step(uc_struct*, uint64_t address, uint32_t size, void* self);
    void note_watch_hit(const Watch& w);
    void bus_access_watched(tlm::tlm_command cmd, uint32_t address, unsigned size) override;
    static void hook_breakpoint(uc_struct*, uint64_t address, uint32_t size, void* self);
    static void hook_watch(uc_struct*, uc_mem_type type, uint64_t address, int size, int64_t value, void* watch);

    SystemControlSpace scs_;
    RepeatedWarnings unmodelled_{name()};  // accesses to system registers the model lacks
    sc_core::sc_event irq_event_;
    std::vector<bool> irq_lines_;  // current level of each external line
    int high_lines_ = 0;           // how many of them are high
    int active_irq_ = -1;          // exception being handled (no nesting), -1 = thread mode
    // Set when an exception is taken, consumed by the next sleep request,
    // which then returns at once (like the WFE event register). Interrupts are
    // taken only between instruction blocks, so one can land between the
    // firmware's "done yet?" check and its sleep; without this the CPU would
    // sleep through the wake-up it was waiting for.
    bool wake_event_ = false;

    // Debugger state (all idle when debugger_ is null).
    CpuDebugger* debugger_ = nullptr;
    std::optional<DebugStop> debug_stop_;  // stop to report at the next instruction boundary
    bool debug_step_ = false;              // the next chunk is one instruction
    bool debug_resumed_ = false;           // the next chunk starts from a stop
    std::optional<uint32_t> debug_skip_;   // breakpoint at the resume address: not hit again at once
    uc_hook step_hook_ = 0;                // code hook on every address while stepping
    unsigned step_instructions_ = 0;       // instructions begun in this step
    uint64_t debug_polls_ = 0;             // loop turns, to ask for interrupts now and then
    std::map<uint32_t, uc_hook> breakpoints_;
    std::vector<std::unique_ptr<Watch>> watches_;
};

}  // namespace ai8x
