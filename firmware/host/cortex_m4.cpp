#include "firmware/host/cortex_m4.h"

#include "firmware/host/thumb_timing.h"
#include "firmware/host/thumb_spin_loop.h"

#include <spdlog/spdlog.h>

#include <elf.h>

#include <algorithm>

namespace ai8x {

namespace {

// EXC_RETURN for "return to Thread mode, main stack, basic frame": the only
// kind this core creates (firmware is built without FPU context, see builder).
constexpr uint32_t kExcReturnThreadMsp = 0xFFFFFFF9;
constexpr uint32_t kExcReturnMin = 0xFFFFFFF0;
constexpr uint32_t kFrameBytes = 32;           // R0-R3, R12, LR, PC, xPSR
constexpr uint32_t kXpsrFrameAlign = 1u << 9;  // stacked xPSR bit 9: SP was realigned by 4
constexpr unsigned kExternalIrqs = 240;        // ARMv7-M maximum
// The reset vector table is at the start of the read-only CPU region (flash).
uint32_t reset_vector_table(const DeviceConfig& cfg) {
    for (const auto& r : cfg.cpu_regions)
        if (!r.writable) return uint32_t(r.base);
    return 0;
}

const int kFrameRegs[] = {UC_ARM_REG_R0,  UC_ARM_REG_R1, UC_ARM_REG_R2, UC_ARM_REG_R3,
                          UC_ARM_REG_R12, UC_ARM_REG_LR, UC_ARM_REG_PC, UC_ARM_REG_XPSR};

}  // namespace

CortexM4::CortexM4(sc_core::sc_module_name name, const DeviceConfig& cfg)
    : UnicornCpu(
          name, cfg, UC_ARCH_ARM, uc_mode(UC_MODE_THUMB | UC_MODE_MCLASS),
          CoreTiming{cfg.clocks.cpu_hz, cfg.cpu_timing.cycles_per_instruction, cfg.cpu_timing.branch_refill_cycles},
          EM_ARM),
      scs_("scs", cfg_, reset_vector_table(cfg_)),
      irq_lines_(kExternalIrqs, false) {
    SC_HAS_PROCESS(CortexM4);
    SC_THREAD(run);
    // Unicorn (QEMU's code generator and helpers) runs on this thread's stack.
    set_stack_size(32 * 1024 * 1024);
    check_uc(uc_ctl_set_cpu_model(uc_, UC_CPU_ARM_CORTEX_M4), "Unicorn CPU model Cortex-M4");
}

void CortexM4::set_irq(unsigned irqn, bool level) {
    if (irqn >= irq_lines_.size()) {
        spdlog::error("{}: interrupt line {} does not exist", name(), irqn);
        return;
    }
    if (irq_lines_[irqn] != level) high_lines_ += level ? 1 : -1;
    irq_lines_[irqn] = level;
    if (level) irq_event_.notify();
}

// Only raises a flag: the block hook stops Unicorn before the next block
// (the rest of the current block still runs, as on a core that takes a few
// cycles to act on the request). Stopping from inside an MMIO callback would
// make Unicorn report the PC of the block's start, so the store would run twice.
void CortexM4::request_sleep() { sleeping_ = true; }

void CortexM4::report_unhandled_exception() {
    std::string which = active_irq_ >= 0 ? "interrupt " + std::to_string(active_irq_)
                                         : std::string("an exception outside any interrupt");
    stop_with_error("unhandled exception: firmware reached its default handler while delivering " + which +
                    " (no handler installed)");
}

void CortexM4::start_of_simulation() {
    try {
        map_memories();
        map_system_control_space();
        if (!image_) throw ElfError(std::string(name()) + ": no firmware loaded (call load_elf before sc_start)");
        load_image();
        reset();
    } catch (const std::exception& e) {
        stop_with_error(e.what());
    }
}

// A loop polling a register the model lacks would print a line per pass: the
// first access of each kind to each register is a warning, the rest counted.
void CortexM4::warn_unmodelled_register(const char* access, uint64_t offset) {
    const std::string reg = hex32(uint32_t(scs_.base() + offset));
    unmodelled_.warn(fmt::format("{} of unmodelled system register {}", access, reg),
                     fmt::format("{}: {} of unmodelled system register {} at {}", name(), access, reg, describe(pc_)));
}

void CortexM4::map_system_control_space() {
    // The user data of the callbacks is the core itself: the SCS is not a bus window.
    check_uc(uc_mmio_map(
                 uc_, scs_.base(), scs_.size(),
                 [](uc_engine*, uint64_t off, unsigned, void* w) -> uint64_t {
                     auto* cpu = static_cast<CortexM4*>(w);
                     uint32_t v = 0;
                     if (!cpu->scs_.read(uint32_t(off & ~3u), v)) cpu->warn_unmodelled_register("read", off);
                     return v >> (8 * (off & 3));
                 },
                 this,
                 [](uc_engine*, uint64_t off, unsigned, uint64_t value, void* w) {
                     auto* cpu = static_cast<CortexM4*>(w);
                     if (!cpu->scs_.write(uint32_t(off & ~3u), uint32_t(value)))
                         cpu->warn_unmodelled_register("write", off);
                 },
                 this),
             "mapping the system control space");
}

void CortexM4::reset() {
    uint32_t sp = read_word(scs_.vtor());
    uint32_t entry = read_word(scs_.vtor() + 4);
    check_uc(uc_reg_write(uc_, UC_ARM_REG_SP, &sp), "setting SP");
    pc_ = entry & ~1u;
    enter_without_branch(pc_);
    spdlog::debug("{}: reset, SP={} PC={} ({})", name(), hex32(sp), hex32(pc_), describe(pc_));
}

// ---------------------------------------------------------------- main loop

void CortexM4::run() {
    qk_.reset();
    if (debugger_) debug_stop_ = DebugStop{};  // hold at reset until the debugger lets go
    while (!halted_) {
        if (debugger_) {
            debug_boundary();
            if (halted_) break;
        }
        sample_irq_lines();
        if (take_interrupt()) continue;
        if (sleeping_ && wake_event_) {
            // An interrupt was taken since the last sleep: return at once and
            // let the firmware re-check its condition (see cortex_m4.h).
            wake_event_ = false;
            sleeping_ = false;
            continue;
        }
        if (sleeping_) {
            // WFI wakes on any pending enabled interrupt (taken above unless one is active).
            // Deep sleep (SCR.SLEEPDEEP, older generated main()s around a RISC-V run)
            // wakes the same way: the wake-up sources are the interrupts the firmware enabled.
            // The line's arguments (a symbol lookup, a time put through a
            // string stream: tens of us cold) only when it is printed; the
            // firmware sleeps right after it starts the CNN.
            if (spdlog::should_log(spdlog::level::debug))
                spdlog::debug("{}: {} at {} ({})", name(), scs_.sleep_deep() ? "deep sleep" : "sleeping", describe(pc_),
                              sc_core::sc_time_stamp().to_string());
            // The line may rise while sync() waits, so look again before sleeping on the event.
            qk_.sync();
            sleep_until(
                [this] {
                    sample_irq_lines();
                    return scs_.next_interrupt().has_value();
                },
                irq_event_);
            continue;
        }
        execute_chunk();
        if (qk_.need_sync()) qk_.sync_or_defer();
    }
}

void CortexM4::execute_chunk() {
    begin_chunk();
    // A debugger's single step: exactly one instruction, wherever the block ends.
    const bool step = debug_step_;
    if (step) chunk_end_ = UINT64_MAX;
    if (debug_resumed_) {
        debug_resumed_ = false;
        if (breakpoints_.count(pc_)) debug_skip_ = pc_;
    }
    if (step) begin_step();

    uc_err err = uc_emu_start(uc_, pc_ | 1u, 0, 0, 0);
    if (step) end_step();
    debug_skip_.reset();
    account_instructions();
    uint32_t next = 0;
    uc_reg_read(uc_, UC_ARM_REG_PC, &next);
    // QEMU does not store the PC when one block jumps straight to the next,
    // so after a stop in the block hook the register may be stale.
    if (err == UC_ERR_OK && stopping_) next = stop_address_;

    if (halted_) return;
    if (err == UC_ERR_OK) {
        const uint32_t last = pc_;
        pc_ = next & ~1u;
        if (pc_ == 0) stop_with_error("jump to address 0x00000000 (null function pointer?) from " + describe(last));
        return;
    }
    // A branch to an EXC_RETURN value (handler done): QEMU, which believes it
    // is in Thread mode, reports it as an exception or an unmapped fetch at
    // 0xFFFFFFF8.
    bool to_exc_return = next >= kExcReturnMin - 1 || (unmapped_address_ && *unmapped_address_ >= kExcReturnMin - 1);
    if (to_exc_return && (err == UC_ERR_EXCEPTION || err == UC_ERR_FETCH_UNMAPPED)) {
        if (active_irq_ < 0) {
            stop_with_error("exception return (" + hex32(next) + ") outside a handler at " + describe(pc_));
            return;
        }
        return_from_exception();
        return;
    }
    stop_on_fault(err, next, "CPU");
}

// Thumb-2: a halfword whose top five bits are 0b11101, 0b11110 or 0b11111 is
// the first half of a 32-bit instruction; any other is a 16-bit one.
// Condition-failed instructions of an IT block count too: the M4 spends an
// issue cycle on them (a per-instruction Unicorn hook skipped them).
uint32_t CortexM4::instruction_bytes(uint16_t halfword) const { return (halfword >> 11) >= 0x1D ? 4 : 2; }

uint32_t CortexM4::instruction_cycles(uint16_t hw1, uint16_t hw2, bool& after_access) const {
    const ThumbCost c = thumb_instruction_cost(hw1, hw2, after_access, cfg_.cpu_timing);
    after_access = c.memory_access;
    return c.cycles;
}

bool CortexM4::idempotent_poll_loop(uint32_t address, uint32_t bytes) {
    if (bytes == 0 || bytes % 2) return false;
    std::vector<uint16_t> code(bytes / 2);
    if (uc_mem_read(uc_, address, code.data(), bytes) != UC_ERR_OK) return false;
    return thumb_idempotent_poll_loop(code, address);
}

// What run() does between two chunks when none of its cases applies: only
// the next chunk begins (sample_irq_lines has nothing to sample, take_interrupt
// nothing to take).
bool CortexM4::between_chunks_idle() const {
    return !halted_ && !debugger_ && !sleeping_ && high_lines_ == 0 && !scs_.next_interrupt();
}

// ---------------------------------------------------------------- interrupts

void CortexM4::sample_irq_lines() {
    // Level-sensitive lines: a high line keeps its interrupt pending (also
    // re-pends it after the handler returns, as the NVIC does).
    if (high_lines_ == 0) return;  // the usual case, checked between every two chunks
    for (unsigned i = 0; i < irq_lines_.size(); ++i)
        if (irq_lines_[i] && int(i) != active_irq_) scs_.set_pending(i, true);
}

bool CortexM4::take_interrupt() {
    if (active_irq_ >= 0) return false;  // handlers do not nest (one priority level)
    uint32_t primask = 0;
    uc_reg_read(uc_, UC_ARM_REG_PRIMASK, &primask);
    if (primask & 1) return false;
    auto irq = scs_.next_interrupt();
    if (!irq) return false;

    uint32_t vector = 0;
    try {
        vector = read_word(scs_.vtor() + 4 * (16 + *irq));
        uint32_t regs[8];
        for (int i = 0; i < 8; ++i) uc_reg_read(uc_, kFrameRegs[i], &regs[i]);
        regs[6] = pc_;  // return address: the next instruction not yet executed
        uint32_t sp = 0;
        uc_reg_read(uc_, UC_ARM_REG_SP, &sp);
        bool realign = (sp & 4) != 0;
        sp = (sp - kFrameBytes) & ~7u;
        regs[7] = (regs[7] & ~kXpsrFrameAlign) | (realign ? kXpsrFrameAlign : 0);
        for (int i = 0; i < 8; ++i) write_word(sp + 4 * i, regs[i]);
        uc_reg_write(uc_, UC_ARM_REG_SP, &sp);
        uint32_t lr = kExcReturnThreadMsp;
        uc_reg_write(uc_, UC_ARM_REG_LR, &lr);
    } catch (const std::exception& e) {
        stop_with_error(std::string("stacking the exception frame for interrupt ") + std::to_string(*irq) +
                        " failed: " + e.what());
        return true;
    }
    if ((vector & ~1u) == 0) {
        stop_with_error("interrupt " + std::to_string(*irq) + " has no vector (VTOR " + hex32(scs_.vtor()) + ")");
        return true;
    }
    scs_.set_pending(*irq, false);
    active_irq_ = int(*irq);
    sleeping_ = false;  // WFI ends when an exception is taken
    wake_event_ = true;
    if (spdlog::should_log(spdlog::level::debug))
        spdlog::debug("{}: interrupt {} -> {} at {}", name(), *irq, describe(vector & ~1u),
                      sc_core::sc_time_stamp().to_string());
    pc_ = vector & ~1u;
    enter_without_branch(pc_);  // the entry latency includes fetching the handler
    qk_.inc(double(cfg_.cpu_timing.exception_entry_cycles) * cycle_);
    return true;
}

void CortexM4::return_from_exception() {
    try {
        uint32_t sp = 0;
        uc_reg_read(uc_, UC_ARM_REG_SP, &sp);
        uint32_t regs[8];
        for (int i = 0; i < 8; ++i) regs[i] = read_word(sp + 4 * i);
        sp += kFrameBytes + ((regs[7] & kXpsrFrameAlign) ? 4 : 0);
        for (int i = 0; i < 8; ++i)
            if (kFrameRegs[i] != UC_ARM_REG_PC) uc_reg_write(uc_, kFrameRegs[i], &regs[i]);
        uc_reg_write(uc_, UC_ARM_REG_SP, &sp);
        pc_ = regs[6] & ~1u;
    } catch (const std::exception& e) {
        stop_with_error(std::string("exception return failed: ") + e.what());
        return;
    }
    enter_without_branch(pc_);  // the return latency includes fetching the interrupted code
    if (spdlog::should_log(spdlog::level::debug))
        spdlog::debug("{}: return from interrupt {} to {}", name(), active_irq_, describe(pc_));
    active_irq_ = -1;
    qk_.inc(double(cfg_.cpu_timing.exception_return_cycles) * cycle_);
}

}  // namespace ai8x
