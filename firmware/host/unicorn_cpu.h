// What every instruction-set simulator core of the board shares (the
// Cortex-M4 and the RISC-V core): a Unicorn 2 engine as a SystemC/TLM
// initiator on the AHB bus.
//
// Flash and SRAM are mapped straight into Unicorn through DMI pointers granted
// by the memories on the bus (fast path; both cores see the same bytes). Every
// address of the other targets the bus reports (survey_bus) is an MMIO callback
// that issues a TLM b_transport through `socket`, in program order, so the bus
// and the accelerator see the firmware's accesses one by one. Executed
// instructions are converted to core cycles and kept in step with SystemC time
// through a quantum keeper (core_quantum_keeper.h: tlm_quantumkeeper's pattern,
// whose quantum ends with nothing scheduled may be owed). Instructions are counted per translated block
// (one Unicorn block hook, not a helper call per instruction), so time
// advances in block steps: a bus access inside a block happens at the time of
// the block's end. Each instruction costs `cycles_per_instruction` cycles of
// the core's own clock, each data access to flash or SRAM the region's
// configured wait states (counted by Unicorn memory hooks, installed only when
// non-zero), each accelerator or peripheral access whatever the TLM bus adds.
//
// A subclass owns the architecture: reset, interrupts, its main loop (run),
// and how long an instruction is.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <unicorn/unicorn.h>

#include "firmware/host/block_books.h"
#include "firmware/host/block_pricer.h"
#include "firmware/host/core_quantum_keeper.h"
#include "firmware/host/elf_image.h"
#include "firmware/host/poll_fast_forward.h"
#include "tlm/device_config.h"
#include "tlm/issue_time.h"
#include "tlm/sync_hint.h"

namespace ai8x {

// Throws std::runtime_error naming `what` when Unicorn reports an error.
void check_uc(uc_err err, const std::string& what);

class UnicornCpu : public sc_core::sc_module, private PollFastForward::Core {
public:
    tlm_utils::simple_initiator_socket<UnicornCpu, 32> socket;

    struct CoreTiming {
        double hz = 100e6;                    // core clock
        uint32_t cycles_per_instruction = 1;  // base cost of every executed instruction
        uint32_t branch_refill_cycles = 0;    // added when a block is entered other than by falling through
    };
    // `elf_machine`: ELF e_machine of the images this core runs.
    UnicornCpu(sc_core::sc_module_name name, const DeviceConfig& cfg, uc_arch arch, uc_mode mode, CoreTiming timing,
               uint16_t elf_machine);
    ~UnicornCpu() override;

    // Reads the firmware; it is copied into flash/SRAM when simulation starts.
    // Throws ElfError with a clear message.
    void load_elf(const std::string& path);
    void halt();  // stop executing for good (exit, verdict)

    // Called once when the core stops on an error (bus fault, unhandled
    // exception, bad image): the message names PC, symbol and address.
    std::function<void(const std::string& message)> on_error;
    // Called when the core goes to sleep (WFI) (true) and wakes (false), at
    // SystemC time (the core synchronises before it sleeps). Empty: not called.
    std::function<void(bool asleep)> on_sleep_change;

    // Calls `done(entered, returned)` every time the function at `address`
    // returns to its caller; both are this core's local time (SystemC time plus
    // the quantum keeper's offset). Entry is seen by a Unicorn code hook limited
    // to that one address, the return by comparing each block start with the
    // saved return address. Register before the simulation starts.
    // `entry`, if given, runs when the call starts (registers hold the
    // arguments: read_register); when `done` runs, the return-value register
    // holds the result.
    using CallObserver = std::function<void(sc_core::sc_time entered, sc_core::sc_time returned)>;
    void observe_calls(uint32_t address, CallObserver done, std::function<void()> entry = {});
    // Calls `written(address, size)` before every store of this core into
    // [begin, end] (inclusive; begin > end: every address). A Unicorn memory
    // hook: every store in that range leaves the fast path, so register only
    // when wanted, before the simulation starts. Unicorn's PC is not exact
    // inside the callback: use block_start() and block_serial().
    using WriteWatch = std::function<void(uint32_t address, unsigned size)>;
    void watch_writes(uint32_t begin, uint32_t end, WriteWatch written);
    // The bus declares which address ranges race with SystemC processes (a
    // SyncHint: the input FIFOs, the fast FIFO); an access there synchronises
    // with SystemC time first, except as these two allow.
    // True while a write to such a range must happen at this core's own
    // instant: a process waits for the next push (the accelerator's stream
    // controller, starved), or the activity is recorded at SystemC time
    // (--vcd, --timeline). Empty: every such write synchronises first.
    std::function<bool()> push_awaited;
    // True when an access to such a range at `address` (`write`: a push, else
    // a status read) has, at this core's own instant, the outcome it has now,
    // whatever the simulation does before then (InputFifoBlock::settled_access):
    // it is made at once, without synchronising. Empty: never.
    std::function<bool(uint32_t address, bool write)> access_settled;
    // True when an access at `address` neither looks at SystemC time nor
    // wakes a process (InputFifoBlock::time_neutral): it may be made while
    // this core owes the waits of quantum ends it left out. Empty: none.
    std::function<bool(uint32_t address, bool write)> access_time_neutral;
    // A quantum's end with nothing scheduled up to this core's instant leaves
    // out its wait for instants before `until` (the run's time limit), paying
    // it before any access that is not time-neutral (core_quantum_keeper.h).
    // Default: every quantum's end waits.
    void defer_quantum_ends(sc_core::sc_time until) { qk_.defer_until(until); }
    // Counts the passes of a status-polling loop instead of executing them
    // while nothing can change the status it reads (poll_fast_forward.h).
    // Turn it off when every bus access must be seen (a bus trace records
    // them all); a debugger turns it off (CortexM4::attach_debugger).
    PollFastForward& poll_fast_forward() { return poll_fast_forward_; }
    // Called when the firmware writes to read-only memory (flash), before the
    // run stops with the resulting fault: the address and the storing instruction.
    std::function<void(uint32_t address, uint32_t pc)> on_protected_write;
    // A register of the core (Unicorn's numbering of its architecture), as Unicorn has it now.
    uint32_t read_register(int reg) const;
    // The function-result register (R0, a0): inside a call observer's `done`, the value returned.
    uint32_t return_value() const { return read_register(return_value_register()); }
    // Copies the core's memory (flash/SRAM); false if any of it is not mapped.
    bool read_memory(uint32_t address, void* out, uint32_t bytes) const;
    // The translated block now executing: its first instruction, and a number
    // that changes every time a block starts (two runs of one loop body differ).
    // Inside a write watch, the PC register is not exact; these are.
    uint32_t block_start() const { return books_.block_start; }
    uint64_t block_serial() const { return books_.block_base; }
    // A debugger's access to memory: flash and SRAM directly, anything else
    // through the bus's debug transport (no simulated time passes). False
    // when some byte is not reachable. Writes may change flash, like a programmer.
    bool debug_read(uint32_t address, uint8_t* data, uint32_t size);
    bool debug_write(uint32_t address, const uint8_t* data, uint32_t size);
    // This core's notion of now: SystemC time plus the not yet synchronised local time.
    sc_core::sc_time local_time() const;
    const ElfImage* image() const { return image_ ? &*image_ : nullptr; }

    uint64_t instructions() const { return books_.instret; }
    uint32_t pc() const { return pc_; }
    std::string describe(uint32_t address) const;  // symbol+offset when an image is loaded
    bool halted() const { return halted_; }
    const std::optional<std::string>& error() const { return error_; }

protected:
    struct Mmio {  // one Unicorn MMIO window routed to TLM; offsets are relative to `base`
        UnicornCpu* cpu;
        uint64_t base;
    };
    // Length in bytes of the instruction whose first halfword is `halfword`.
    virtual uint32_t instruction_bytes(uint16_t halfword) const = 0;
    // Issue cycles of the instruction whose halfwords are `hw1`, `hw2` (the
    // second is meaningless for a 16-bit one). `after_access` says whether the
    // previous instruction of the block loaded or stored; set it for the next.
    // The default: every instruction costs the base price.
    virtual uint32_t instruction_cycles(uint16_t hw1, uint16_t hw2, bool& after_access) const;
    // The flow continues at `address` without a branch (reset, exception entry
    // or return): entering the block there costs no pipeline refill.
    void enter_without_branch(uint32_t address) {
        books_.fallthrough = address;
        books_.last_access = false;
    }
    // True when the translated block [address, address + bytes) is a polling
    // loop whose passes are all alike while the value it loads is
    // (firmware/host/thumb_spin_loop.h). Asked once per block.
    virtual bool idempotent_poll_loop(uint32_t /*address*/, uint32_t /*bytes*/) { return false; }
    // True when the core's main loop, between a chunk that stopped at its
    // budget and the next, would only begin that chunk: no interrupt to take,
    // no sleep, no debugger. Asked by the poll fast-forward. Default: never.
    virtual bool between_chunks_idle() const { return false; }
    // Register holding the return address right at a function's entry.
    virtual int return_address_register() const = 0;
    virtual int return_value_register() const = 0;

    // Flash, SRAM, the bus's other targets (survey_bus), the block and
    // unmapped-access hooks, wait-state and call hooks.
    void map_memories();
    void map_bus_window(uint64_t base, uint64_t size);
    void load_image();  // the ELF's segments into flash/SRAM (backdoor)
    void stop_with_error(const std::string& message);

    // Sets the instruction budget of the next uc_emu_start: until the local
    // quantum is used up (at least one instruction).
    void begin_chunk();
    // WFI: waits in SystemC, one `event` at a time, until `awake()` holds or
    // the core halts, telling on_sleep_change when it really slept; the core
    // synchronised its local time before. Ends the sleep request.
    void sleep_until(const std::function<bool()>& awake, const sc_core::sc_event& event);
    void account_instructions();
    // Local time when this core's issue-cycle count (books_.cycles) reaches `cycles`.
    sc_core::sc_time local_time_at(uint64_t cycles) const;
    uint64_t bus_read(uint32_t address, unsigned size);
    void bus_write(uint32_t address, unsigned size, uint64_t value);
    bool bus_transport(tlm::tlm_command cmd, uint32_t address, unsigned size, uint8_t* data);
    // Called on every bus access (before it is made) while bus_watches_ is set.
    virtual void bus_access_watched(tlm::tlm_command, uint32_t /*address*/, unsigned /*size*/) {}
    // Stops the core on the error that ended uc_emu_start (`err`, Unicorn's PC
    // `next`): an unmapped access, a store to read-only memory, or else an
    // exception of the `core` ("CPU", "RISC-V core").
    void stop_on_fault(uc_err err, uint32_t next, const std::string& core);
    // Stops the chunk before the instruction at `address` inside the block now
    // executing (a debugger's stop): takes back the count of the block's
    // instructions from there on. Call uc_emu_stop afterwards.
    void stop_inside_block(uint32_t address);
    bool in_cpu_memory(uint32_t address, uint32_t size) const;  // wholly inside flash/SRAM
    // Makes Unicorn translate flash and SRAM code again (after hooks came or went).
    void drop_translations();
    uint32_t read_word(uint32_t address);
    void write_word(uint32_t address, uint32_t value);
    // The price of the block [address, address + bytes) (block_pricer.h).
    BlockCost block_cost(uint32_t address, uint32_t bytes) { return pricer_.cost(address, bytes); }

    const DeviceConfig& cfg_;
    uc_struct* uc_ = nullptr;
    std::optional<ElfImage> image_;
    CoreQuantumKeeper qk_;
    sc_core::sc_time cycle_;  // one clock of this core
    const CoreTiming timing_;

    bool stopping_ = false;      // hook_block asked Unicorn to stop before this block
    uint32_t stop_address_ = 0;  // ... which starts here
    BlockBooks books_;           // instructions and cycles counted, the block now executing
    uint64_t wait_cycles_ = 0;   // flash/SRAM wait-state cycles not yet converted to local time
    uint64_t chunk_end_ = 0;     // stop the current chunk after this many instructions
    uint32_t pc_ = 0;            // start of the last block begun; between chunks, the next instruction
    bool sleeping_ = false;      // the core asked to sleep; the block hook stops Unicorn
    bool halted_ = false;
    std::optional<std::string> error_;
    std::optional<uint64_t> unmapped_address_;
    std::optional<uint64_t> protected_address_;  // a store to read-only memory stopped Unicorn
    bool bus_watches_ = false;                   // call bus_access_watched on every bus access

private:
    static void hook_block(uc_struct*, uint64_t address, uint32_t size, void* self);
    static void hook_call_entry(uc_struct*, uint64_t address, uint32_t size, void* watch);
    static void hook_wait_states(uc_struct*, uc_mem_type, uint64_t, int, int64_t, void* hook);
    static bool hook_unmapped(uc_struct*, uc_mem_type type, uint64_t address, int size, int64_t value, void* self);
    static bool hook_write_protected(uc_struct*, uc_mem_type, uint64_t address, int, int64_t, void* self);
    static void hook_watched_write(uc_struct*, uc_mem_type, uint64_t address, int size, int64_t, void* watch);
    static uint64_t mmio_read(uc_struct*, uint64_t offset, unsigned size, void* window);
    static void mmio_write(uc_struct*, uint64_t offset, unsigned size, uint64_t value, void* window);
    void install_wait_state_hooks();
    void install_call_hooks();
    void install_write_watches();
    void call_returned();
    bool debug_bus(tlm::tlm_command cmd, uint32_t address, uint8_t* data, uint32_t size);
    // Asks the bus, one range after another over the whole address space,
    // what lies there (DMI queries carrying a SyncHint, tlm/sync_hint.h): maps
    // the block of every target without direct access as a bus window, and
    // keeps the ranges whose accesses must happen at this core's own instant.
    void survey_bus();
    // What the survey learnt of a range of bus addresses without direct
    // memory access: whether its accesses synchronise, and the bus's route
    // there (null: through the socket).
    struct BusRange {
        uint64_t base;  // first address
        uint32_t last;
        bool synchronise;
        BusRoute* route;
    };
    std::vector<BusRange> bus_ranges_;  // sorted by base, not overlapping
    mutable std::size_t last_bus_range_ = 0;
    // The range holding [address, address + size), or null.
    const BusRange* bus_range(uint32_t address, unsigned size) const;
    // A target stopped its direct transport over [start, end]: those accesses go through the socket again.
    void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end);
    // What the poll fast-forward asks of this core (PollFastForward::Core).
    uint64_t chunk_end() const override { return chunk_end_; }
    void book_pass(uint32_t address, uint32_t bytes) override;
    bool poll_loop(uint32_t address, uint32_t bytes) override;
    bool restart_chunk() override;

    BlockPricer pricer_;
    PollFastForward poll_fast_forward_;
    const uint16_t elf_machine_;
    std::vector<std::unique_ptr<Mmio>> windows_;
    tlm::tlm_generic_payload bus_payload_;  // reused by bus_transport()
    IssueTime* issue_time_ = nullptr;       // its extension: this core's instant of the access (owned by the payload)

    // Functions observed with observe_calls, and the calls now in progress
    // (innermost last) with the address each returns to.
    struct CallWatch {
        UnicornCpu* cpu;
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
        UnicornCpu* cpu;
        uint32_t cycles;  // wait states per access
    };
    std::vector<std::unique_ptr<WaitStateHook>> wait_state_hooks_;
};

}  // namespace ai8x
