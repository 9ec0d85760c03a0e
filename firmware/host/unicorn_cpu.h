// What every instruction-set simulator core of the board shares (the
// Cortex-M4 and the RISC-V core): a Unicorn 2 engine as a SystemC/TLM
// initiator on the AHB bus.
//
// Flash and SRAM are mapped straight into Unicorn through DMI pointers granted
// by the memories on the bus (fast path; both cores see the same bytes). Every
// other address in the peripheral and accelerator windows is an MMIO callback
// that issues a TLM b_transport through `socket`, in program order, so the bus
// and the accelerator see the firmware's accesses one by one. Executed
// instructions are converted to core cycles and kept in step with SystemC time
// through a tlm_quantumkeeper. Instructions are counted per translated block
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
#include <unordered_map>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>
#include <unicorn/unicorn.h>

#include "firmware/host/elf_image.h"
#include "tlm/device_config.h"

namespace ai8x {

// Throws std::runtime_error naming `what` when Unicorn reports an error.
void check_uc(uc_err err, const std::string& what);

class UnicornCpu : public sc_core::sc_module {
public:
    tlm_utils::simple_initiator_socket<UnicornCpu, 32> socket;

    struct CoreTiming {
        double hz = 100e6;                    // core clock
        uint32_t cycles_per_instruction = 1;  // base cost of every executed instruction
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

    // Calls `done(entered, returned)` every time the function at `address`
    // returns to its caller; both are this core's local time (SystemC time plus
    // the quantum keeper's offset). Entry is seen by a Unicorn code hook limited
    // to that one address, the return by comparing each block start with the
    // saved return address. Register before the simulation starts.
    using CallObserver = std::function<void(sc_core::sc_time entered, sc_core::sc_time returned)>;
    void observe_calls(uint32_t address, CallObserver done);
    // This core's notion of now: SystemC time plus the not yet synchronised local time.
    sc_core::sc_time local_time() const;
    const ElfImage* image() const { return image_ ? &*image_ : nullptr; }

    uint64_t instructions() const { return instret_; }
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
    // Register holding the return address right at a function's entry.
    virtual int return_address_register() const = 0;

    // Flash, SRAM, the peripheral and accelerator windows, the block and
    // unmapped-access hooks, wait-state and call hooks.
    void map_memories();
    void map_bus_window(uint64_t base, uint64_t size);
    void load_image();  // the ELF's segments into flash/SRAM (backdoor)
    void stop_with_error(const std::string& message);

    // Sets the instruction budget of the next uc_emu_start: until the local
    // quantum is used up (at least one instruction).
    void begin_chunk();
    void account_instructions();
    // Local time at the moment the given instruction count was reached.
    sc_core::sc_time local_time_at(uint64_t instret) const;
    uint64_t bus_read(uint32_t address, unsigned size);
    void bus_write(uint32_t address, unsigned size, uint64_t value);
    bool bus_transport(tlm::tlm_command cmd, uint32_t address, unsigned size, uint8_t* data);
    uint32_t read_word(uint32_t address);
    void write_word(uint32_t address, uint32_t value);
    uint32_t block_instructions(uint32_t address, uint32_t bytes);

    const DeviceConfig& cfg_;
    uc_struct* uc_ = nullptr;
    std::optional<ElfImage> image_;
    tlm_utils::tlm_quantumkeeper qk_;
    sc_core::sc_time cycle_;  // one clock of this core
    const CoreTiming timing_;

    bool stopping_ = false;      // hook_block asked Unicorn to stop before this block
    uint32_t stop_address_ = 0;  // ... which starts here
    uint32_t block_start_ = 0;   // address of the block now executing
    uint64_t block_base_ = 0;    // instret_ before that block
    uint32_t block_end_ = 0;     // its first address past the end
    // Instructions executed, counted a whole block at a time when the block starts.
    uint64_t instret_ = 0;
    uint64_t accounted_ = 0;    // instructions already converted to local time
    uint64_t wait_cycles_ = 0;  // flash/SRAM wait-state cycles not yet converted to local time
    uint64_t chunk_end_ = 0;    // stop the current chunk after this many instructions
    uint32_t pc_ = 0;           // start of the last block begun; between chunks, the next instruction
    bool sleeping_ = false;     // the core asked to sleep; the block hook stops Unicorn
    bool halted_ = false;
    std::optional<std::string> error_;
    std::optional<uint64_t> unmapped_address_;

private:
    static void hook_block(uc_struct*, uint64_t address, uint32_t size, void* self);
    static void hook_call_entry(uc_struct*, uint64_t address, uint32_t size, void* watch);
    static void hook_wait_states(uc_struct*, uc_mem_type, uint64_t, int, int64_t, void* hook);
    static bool hook_unmapped(uc_struct*, uc_mem_type type, uint64_t address, int size, int64_t value, void* self);
    static uint64_t mmio_read(uc_struct*, uint64_t offset, unsigned size, void* window);
    static void mmio_write(uc_struct*, uint64_t offset, unsigned size, uint64_t value, void* window);
    void install_wait_state_hooks();
    void install_call_hooks();
    void call_returned();
    // True for bus windows whose state races with the accelerator (FIFOs).
    bool needs_sync(uint32_t address) const;

    const uint16_t elf_machine_;
    std::vector<std::unique_ptr<Mmio>> windows_;
    tlm::tlm_generic_payload bus_payload_;  // reused by bus_transport()

    // Functions observed with observe_calls, and the calls now in progress
    // (innermost last) with the address each returns to.
    struct CallWatch {
        UnicornCpu* cpu;
        uint32_t address;
        CallObserver done;
    };
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
    // Instruction count of each translated block seen, keyed by address and
    // byte size (a block at one address can be retranslated shorter).
    // Firmware does not rewrite its code, so counts never go stale.
    std::unordered_map<uint64_t, uint32_t> block_counts_;
};

}  // namespace ai8x
