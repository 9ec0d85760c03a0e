// Cortex-M4 instruction-set simulator (Unicorn 2) as a SystemC/TLM initiator.
//
// Flash and SRAM are mapped straight into Unicorn through DMI pointers granted
// by the memories on the bus (fast path). Every other address in the
// peripheral and accelerator windows is an MMIO callback that issues a TLM
// b_transport through `socket`, in program order, so the bus and the
// accelerator see the firmware's accesses one by one. Executed instructions
// are converted to CPU cycles and kept in step with SystemC time through a
// tlm_quantumkeeper. Instructions are counted per translated block (one
// Unicorn block hook, not a helper call per instruction), so time advances in
// block steps: a bus access inside a block happens at the time of the block's
// end. Each instruction costs cpu.timing.cycles_per_instruction,
// each data access to flash or SRAM the region's configured wait states
// (counted by Unicorn memory hooks, installed only when non-zero), each
// accelerator or peripheral access whatever the TLM bus adds. The NVIC is modelled here (Unicorn has none): exception
// entry/return follow the ARMv7-M architecture (8-word frame, EXC_RETURN).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>
#include <unicorn/unicorn.h>

#include "firmware/host/cpu_debug.h"
#include "firmware/host/elf_image.h"
#include "firmware/host/system_control_space.h"
#include "tlm/device_config.h"

namespace ai8x {

class CortexM4 : public sc_core::sc_module {
public:
    tlm_utils::simple_initiator_socket<CortexM4, 32> socket;

    CortexM4(sc_core::sc_module_name name, const DeviceConfig& cfg);
    ~CortexM4() override;

    // Reads the firmware; it is copied into flash/SRAM when simulation starts.
    // Throws ElfError with a clear message.
    void load_elf(const std::string& path);
    // External interrupt line `irqn` (NVIC numbering: vector entry irqn + 16).
    void set_irq(unsigned irqn, bool level);

    // Simulator services, called by the simulation-control device.
    void request_sleep();               // WFI: run SystemC time until an interrupt is pending
    void halt();                        // stop executing for good (exit, verdict)
    void report_unhandled_exception();  // firmware's default handler was reached

    // Called once when the CPU stops on an error (bus fault, unhandled
    // exception, bad image): the message names PC, symbol and address.
    std::function<void(const std::string& message)> on_error;
    // Called when the CPU goes to sleep in WFI (true) and wakes (false), at
    // SystemC time (the CPU synchronises before it sleeps). Empty: not called.
    std::function<void(bool asleep)> on_sleep_change;

    // Calls `done(entered, returned)` every time the function at `address`
    // returns to its caller; both are this CPU's local time (SystemC time plus
    // the quantum keeper's offset). Entry is seen by a Unicorn code hook limited
    // to that one address, the return by comparing each block start with the saved LR.
    // Register before the simulation starts.
    // `entry`, if given, runs when the call starts (registers hold the
    // arguments: read_register); when `done` runs, R0 holds the return value.
    using CallObserver = std::function<void(sc_core::sc_time entered, sc_core::sc_time returned)>;
    void observe_calls(uint32_t address, CallObserver done, std::function<void()> entry = {});
    // Calls `written(address, size)` before every CPU store into [begin, end]
    // (inclusive; begin > end: every address). A Unicorn memory hook: every store in that
    // range leaves the fast path, so register only when wanted, before the
    // simulation starts. Unicorn's PC is not exact inside the callback: use
    // block_start() and block_serial().
    using WriteWatch = std::function<void(uint32_t address, unsigned size)>;
    void watch_writes(uint32_t begin, uint32_t end, WriteWatch written);
    // Called when the firmware writes to read-only memory (flash), before the
    // run stops with the resulting fault: the address and the storing instruction.
    std::function<void(uint32_t address, uint32_t pc)> on_protected_write;
    // A register of the core (UC_ARM_REG_*), as Unicorn has it now.
    uint32_t read_register(int reg) const;
    // Copies CPU memory (flash/SRAM); false if any of it is not mapped.
    bool read_memory(uint32_t address, void* out, uint32_t bytes) const;
    // The translated block now executing: its first instruction, and a number
    // that changes every time a block starts (two runs of one loop body differ).
    // Inside a write watch, the PC register is not exact; these are.
    uint32_t block_start() const { return block_start_; }
    uint64_t block_serial() const { return block_base_; }
    // This CPU's notion of now: SystemC time plus the not yet synchronised local time.
    sc_core::sc_time local_time() const;
    const ElfImage* image() const { return image_ ? &*image_ : nullptr; }

    uint64_t instructions() const { return instret_; }
    uint32_t pc() const { return pc_; }
    std::string describe(uint32_t address) const;  // symbol+offset when an image is loaded
    bool halted() const { return halted_; }
    const std::optional<std::string>& error() const { return error_; }

    // ---- Debugger (firmware/host/cortex_m4_debug.cpp). Without one attached
    // none of this is on the execution path.
    // Attach before the simulation starts: the CPU then stops before its first
    // instruction and calls debugger->stopped().
    void attach_debugger(CpuDebugger* debugger) { debugger_ = debugger; }
    // Drops every breakpoint and watchpoint; the CPU runs on freely.
    void detach_debugger();
    // The rest is for use while stopped (inside CpuDebugger::stopped).
    // Registers by number: 0-12 r0-r12, 13 sp, 14 lr, 15 pc, 16 xpsr.
    static constexpr int kDebugRegisters = 17;
    uint32_t debug_register(int n);
    void set_debug_register(int n, uint32_t value);
    // Flash and SRAM directly, anything else through the bus's debug transport
    // (no simulated time passes). False when some byte is not reachable.
    bool debug_read(uint32_t address, uint8_t* data, uint32_t size);
    bool debug_write(uint32_t address, const uint8_t* data, uint32_t size);
    void add_breakpoint(uint32_t address);
    void remove_breakpoint(uint32_t address);
    void add_watchpoint(uint32_t address, uint32_t size, WatchKind kind);
    void remove_watchpoint(uint32_t address, uint32_t size, WatchKind kind);
    // Leaves stopped() running (continue) or after one instruction (step).
    void resume(bool single_step);

private:
    struct Mmio;  // one Unicorn MMIO window routed to TLM
    void run();
    void start_of_simulation() override;
    void map_memories();
    void map_bus_window(uint64_t base, uint64_t size);
    void load_image();
    void reset();
    void execute_chunk();
    void stop_with_error(const std::string& message);

    // Interrupts
    void sample_irq_lines();
    bool take_interrupt();
    void return_from_exception();

    // Time and bus
    void account_instructions();
    // Local time at the moment the given instruction count was reached.
    sc_core::sc_time local_time_at(uint64_t instret) const;
    uint64_t bus_read(uint32_t address, unsigned size);
    void bus_write(uint32_t address, unsigned size, uint64_t value);
    bool bus_transport(tlm::tlm_command cmd, uint32_t address, unsigned size, uint8_t* data);

    // Debugger
    struct Watch {  // one watchpoint (user data of its memory hook)
        CortexM4* cpu;
        uint32_t address;
        uint32_t size;
        WatchKind kind;
        bool on_bus;       // outside flash/SRAM: checked in bus_transport
        uc_hook hook = 0;  // flash/SRAM: the Unicorn memory hook
    };
    void debug_boundary();
    void drop_translations();
    void begin_step();
    void end_step();
    static void hook_step(uc_struct*, uint64_t address, uint32_t size, void* self);
    void debug_stop_inside_block(uint32_t address);
    void note_watch_hit(const Watch& w);
    void check_bus_watchpoints(tlm::tlm_command cmd, uint32_t address, unsigned size);
    bool debug_bus(tlm::tlm_command cmd, uint32_t address, uint8_t* data, uint32_t size);
    bool in_cpu_memory(uint32_t address, uint32_t size) const;
    static void hook_breakpoint(uc_struct*, uint64_t address, uint32_t size, void* self);
    static void hook_watch(uc_struct*, uc_mem_type type, uint64_t address, int size, int64_t value, void* watch);

    uint32_t read_word(uint32_t address);
    void write_word(uint32_t address, uint32_t value);

    // Unicorn callbacks (static trampolines)
    static void hook_block(uc_struct*, uint64_t address, uint32_t size, void* self);
    uint32_t block_instructions(uint32_t address, uint32_t bytes);
    static void hook_call_entry(uc_struct*, uint64_t address, uint32_t size, void* watch);
    static void hook_wait_states(uc_struct*, uc_mem_type, uint64_t, int, int64_t, void* hook);
    void install_wait_state_hooks();
    void install_call_hooks();
    void call_returned();
    static bool hook_unmapped(uc_struct*, uc_mem_type type, uint64_t address, int size, int64_t value, void* self);
    static bool hook_write_protected(uc_struct*, uc_mem_type, uint64_t address, int, int64_t, void* self);
    static void hook_watched_write(uc_struct*, uc_mem_type, uint64_t address, int size, int64_t, void* watch);
    void install_write_watches();
    static uint64_t mmio_read(uc_struct*, uint64_t offset, unsigned size, void* window);
    static void mmio_write(uc_struct*, uint64_t offset, unsigned size, uint64_t value, void* window);

    const DeviceConfig& cfg_;
    uc_struct* uc_ = nullptr;
    std::vector<std::unique_ptr<Mmio>> windows_;
    std::optional<ElfImage> image_;
    SystemControlSpace scs_;
    tlm_utils::tlm_quantumkeeper qk_;
    tlm::tlm_generic_payload bus_payload_;  // reused by bus_transport()
    sc_core::sc_time cycle_;
    sc_core::sc_event irq_event_;

    // Functions observed with observe_calls, and the calls now in progress
    // (innermost last) with the address each returns to.
    struct CallWatch {
        CortexM4* cpu;
        uint32_t address;
        CallObserver done;
        std::function<void()> entry;
    };
    struct WriteWatchRange {
        uint32_t begin, end;
        WriteWatch written;
    };
    std::vector<std::unique_ptr<WriteWatchRange>> write_watches_;
    struct OpenCall {
        const CallWatch* watch;
        uint32_t return_address;
        sc_core::sc_time entered;
    };
    std::vector<std::unique_ptr<CallWatch>> call_watches_;
    std::vector<OpenCall> open_calls_;
    struct WaitStateHook {  // user data of one region's memory hook
        CortexM4* cpu;
        uint32_t cycles;  // wait states per access
    };
    std::vector<std::unique_ptr<WaitStateHook>> wait_state_hooks_;
    bool stopping_ = false;      // hook_block asked Unicorn to stop before this block
    uint32_t stop_address_ = 0;  // ... which starts here
    // Thumb-2 instruction count of each translated block seen, keyed by
    // address and byte size (a block at one address can be retranslated
    // shorter). Firmware does not rewrite its code, so counts never go stale.
    std::unordered_map<uint64_t, uint32_t> block_counts_;
    uint32_t block_start_ = 0;  // address of the block now executing
    uint64_t block_base_ = 0;   // instret_ before that block
    uint32_t block_end_ = 0;    // its first address past the end

    std::vector<bool> irq_lines_;  // current level of each external line
    int active_irq_ = -1;          // exception being handled (no nesting), -1 = thread mode
    // Instructions executed, counted a whole block at a time when the block
    // starts. Condition-failed instructions of an IT block count too: the M4
    // spends an issue cycle on them (a per-instruction Unicorn hook skipped them).
    uint64_t instret_ = 0;
    uint64_t accounted_ = 0;    // instructions already converted to local time
    uint64_t wait_cycles_ = 0;  // flash/SRAM wait-state cycles not yet converted to local time
    uint64_t chunk_end_ = 0;    // stop the current chunk after this many instructions
    uint32_t pc_ = 0;           // start of the last block begun; between chunks, the next instruction
    bool sleeping_ = false;
    // Set when an exception is taken, consumed by the next sleep request,
    // which then returns at once (like the WFE event register). Interrupts are
    // taken only between instruction blocks, so one can land between the
    // firmware's "done yet?" check and its sleep; without this the CPU would
    // sleep through the wake-up it was waiting for.
    bool wake_event_ = false;
    bool halted_ = false;
    std::optional<std::string> error_;

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
    bool bus_watches_ = false;  // some watchpoint lies outside flash/SRAM (checked in bus_transport)
    std::optional<uint64_t> unmapped_address_;
    std::optional<uint64_t> protected_address_;  // a store to read-only memory stopped Unicorn
};

}  // namespace ai8x
