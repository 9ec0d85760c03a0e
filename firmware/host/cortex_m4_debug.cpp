// The debugger's view of the CPU (cortex_m4.h, "Debugger"): stops at
// instruction boundaries, registers, breakpoints and watchpoints (memory
// access is UnicornCpu's debug_read/debug_write).
//
// Breakpoints are Unicorn code hooks limited to their one address, watchpoints
// on flash/SRAM are Unicorn memory hooks limited to their range, and
// watchpoints elsewhere are checked on the CPU's bus path. None exists until
// GDB asks for one, so a run without a debugger executes exactly as before.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstring>

#include "firmware/host/cortex_m4.h"

namespace ai8x {

namespace {

// Loop turns between two looks at the socket for GDB's interrupt byte: one
// system call per turn would slow the run down; a few hundred turns are a
// few hundred simulated microseconds at most.
constexpr uint64_t kInterruptPollTurns = 256;

const int kDebugRegs[] = {UC_ARM_REG_R0,  UC_ARM_REG_R1, UC_ARM_REG_R2, UC_ARM_REG_R3, UC_ARM_REG_R4,  UC_ARM_REG_R5,
                          UC_ARM_REG_R6,  UC_ARM_REG_R7, UC_ARM_REG_R8, UC_ARM_REG_R9, UC_ARM_REG_R10, UC_ARM_REG_R11,
                          UC_ARM_REG_R12, UC_ARM_REG_SP, UC_ARM_REG_LR, UC_ARM_REG_PC, UC_ARM_REG_XPSR};
static_assert(sizeof kDebugRegs / sizeof kDebugRegs[0] == CortexM4::kDebugRegisters, "one entry per register");
constexpr int kPcNumber = 15;
constexpr int kXpsrNumber = 16;
constexpr uint32_t kIpsrMask = 0x1FF;
constexpr uint32_t kFirstExternalException = 16;

bool overlaps(uint32_t a, uint32_t a_size, uint32_t b, uint32_t b_size) {
    return uint64_t(a) < uint64_t(b) + b_size && uint64_t(b) < uint64_t(a) + a_size;
}

}  // namespace

void CortexM4::debug_boundary() {
    if (!debug_stop_) {
        if (++debug_polls_ % kInterruptPollTurns != 0 || !debugger_->interrupt_requested()) return;
        debug_stop_ = DebugStop{DebugStop::kInterrupt};
    }
    const DebugStop why = *debug_stop_;
    debug_stop_.reset();
    spdlog::debug("{}: debugger stop at {} ({})", name(), hex32(pc_), describe(pc_));
    debugger_->stopped(why);
}

void CortexM4::resume(bool single_step) {
    debug_step_ = single_step;
    debug_resumed_ = true;
}

void CortexM4::detach_debugger() {
    for (const auto& [address, hook] : breakpoints_) uc_hook_del(uc_, hook);
    breakpoints_.clear();
    for (const auto& w : watches_)
        if (!w->on_bus) uc_hook_del(uc_, w->hook);
    watches_.clear();
    bus_watches_ = false;
    drop_translations();  // they call the removed hooks
    debugger_ = nullptr;
    debug_stop_.reset();
    debug_step_ = false;
}

// A step runs until the second instruction begins, seen by a code hook on
// every address that exists only during the step. (Unicorn's own instruction
// count would flush all translated code on every return to normal running.)
void CortexM4::begin_step() {
    step_instructions_ = 0;
    check_uc(uc_hook_add(uc_, &step_hook_, UC_HOOK_CODE, reinterpret_cast<void*>(&CortexM4::hook_step), this, 1, 0),
             "single-step hook");
    drop_translations();
}

void CortexM4::end_step() {
    uc_hook_del(uc_, step_hook_);
    drop_translations();
    debug_step_ = false;
    if (!debug_stop_) debug_stop_ = DebugStop{DebugStop::kStep};
}

void CortexM4::hook_step(uc_struct* uc, uint64_t address, uint32_t, void* self) {
    auto* cpu = static_cast<CortexM4*>(self);
    if (cpu->stopping_ || cpu->halted_ || ++cpu->step_instructions_ < 2) return;
    cpu->stop_inside_block(uint32_t(address));
    uc_emu_stop(uc);
}

// ---------------------------------------------------------------- registers

uint32_t CortexM4::debug_register(int n) {
    if (n == kPcNumber) return pc_;  // Unicorn's copy is stale between chunks
    uint32_t v = 0;
    if (n >= 0 && n < kDebugRegisters) uc_reg_read(uc_, kDebugRegs[n], &v);
    // Unicorn believes it is always in Thread mode; the NVIC model knows better.
    if (n == kXpsrNumber && active_irq_ >= 0) v = (v & ~kIpsrMask) | (uint32_t(active_irq_) + kFirstExternalException);
    return v;
}

void CortexM4::set_debug_register(int n, uint32_t value) {
    if (n == kPcNumber) {
        pc_ = value & ~1u;
        return;
    }
    if (n == kXpsrNumber) value &= ~kIpsrMask;  // the exception number is the NVIC's, not writable
    if (n >= 0 && n < kDebugRegisters) uc_reg_write(uc_, kDebugRegs[n], &value);
}

// ---------------------------------------------------------------- breakpoints

void CortexM4::add_breakpoint(uint32_t address) {
    address &= ~1u;
    if (breakpoints_.count(address)) return;
    uc_hook h;
    check_uc(
        uc_hook_add(uc_, &h, UC_HOOK_CODE, reinterpret_cast<void*>(&CortexM4::hook_breakpoint), this, address, address),
        "breakpoint at " + hex32(address));
    breakpoints_[address] = h;
    // Unicorn decides at translation time which instructions call a code hook:
    // drop the translations of this address.
    uc_ctl_remove_cache(uc_, address, address + 4);
}

void CortexM4::remove_breakpoint(uint32_t address) {
    auto it = breakpoints_.find(address & ~1u);
    if (it == breakpoints_.end()) return;
    uc_hook_del(uc_, it->second);
    breakpoints_.erase(it);
    uc_ctl_remove_cache(uc_, address & ~1u, (address & ~1u) + 4);
}

void CortexM4::hook_breakpoint(uc_struct* uc, uint64_t address, uint32_t, void* self) {
    auto* cpu = static_cast<CortexM4*>(self);
    // A step executes its one instruction whatever it is; a continue from a
    // breakpoint leaves it first; and after the block hook's stop the
    // instruction is seen again in the next chunk.
    if (cpu->debug_step_ || cpu->stopping_ || cpu->halted_) return;
    if (cpu->debug_skip_ && *cpu->debug_skip_ == uint32_t(address)) {
        cpu->debug_skip_.reset();
        return;
    }
    cpu->debug_stop_ = DebugStop{DebugStop::kBreakpoint};
    cpu->stop_inside_block(uint32_t(address));
    uc_emu_stop(uc);
}

// ---------------------------------------------------------------- watchpoints

void CortexM4::add_watchpoint(uint32_t address, uint32_t size, WatchKind kind) {
    if (size == 0) size = 1;
    auto w = std::make_unique<Watch>(Watch{this, address, size, kind, !in_cpu_memory(address, size)});
    if (w->on_bus) {
        bus_watches_ = true;
    } else {
        const int types = kind == WatchKind::kWrite  ? UC_HOOK_MEM_WRITE
                          : kind == WatchKind::kRead ? UC_HOOK_MEM_READ
                                                     : (UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE);
        check_uc(uc_hook_add(uc_, &w->hook, types, reinterpret_cast<void*>(&CortexM4::hook_watch), w.get(), address,
                             uint64_t(address) + size - 1),
                 "watchpoint at " + hex32(address));
        drop_translations();
    }
    watches_.push_back(std::move(w));
}

void CortexM4::remove_watchpoint(uint32_t address, uint32_t size, WatchKind kind) {
    if (size == 0) size = 1;
    auto it = std::find_if(watches_.begin(), watches_.end(), [&](const std::unique_ptr<Watch>& w) {
        return w->address == address && w->size == size && w->kind == kind;
    });
    if (it == watches_.end()) return;
    if (!(*it)->on_bus) {
        uc_hook_del(uc_, (*it)->hook);
        drop_translations();
    }
    watches_.erase(it);
    bus_watches_ = std::any_of(watches_.begin(), watches_.end(), [](const auto& w) { return w->on_bus; });
}

void CortexM4::hook_watch(uc_struct*, uc_mem_type, uint64_t, int, int64_t, void* watch) {
    const auto* w = static_cast<const Watch*>(watch);
    w->cpu->note_watch_hit(*w);
}

void CortexM4::bus_access_watched(tlm::tlm_command cmd, uint32_t address, unsigned size) {
    const WatchKind kind = cmd == tlm::TLM_WRITE_COMMAND ? WatchKind::kWrite : WatchKind::kRead;
    for (const auto& w : watches_)
        if (w->on_bus && (w->kind == kind || w->kind == WatchKind::kAccess) &&
            overlaps(address, size, w->address, w->size))
            note_watch_hit(*w);
}

void CortexM4::note_watch_hit(const Watch& w) {
    // Stopping inside a memory access would re-execute the block; stop after
    // it instead, like the Cortex-M4's own (imprecise) DWT watchpoints.
    if (debug_stop_) return;  // the first access of the block is the one reported
    debug_stop_ = DebugStop{DebugStop::kWatchpoint, w.address, w.kind};
    chunk_end_ = 0;  // the block hook stops before the next block
}

}  // namespace ai8x
