#include "firmware/host/cortex_m4.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstring>

namespace ai8x {

namespace {

// EXC_RETURN for "return to Thread mode, main stack, basic frame": the only
// kind this core creates (firmware is built without FPU context, see builder).
constexpr uint32_t kExcReturnThreadMsp = 0xFFFFFFF9;
constexpr uint32_t kExcReturnMin = 0xFFFFFFF0;
constexpr uint32_t kFrameBytes = 32;           // R0-R3, R12, LR, PC, xPSR
constexpr uint32_t kXpsrFrameAlign = 1u << 9;  // stacked xPSR bit 9: SP was realigned by 4
constexpr unsigned kExternalIrqs = 240;        // ARMv7-M maximum
constexpr uint64_t kPage = 0x1000;

const int kFrameRegs[] = {UC_ARM_REG_R0,  UC_ARM_REG_R1, UC_ARM_REG_R2, UC_ARM_REG_R3,
                          UC_ARM_REG_R12, UC_ARM_REG_LR, UC_ARM_REG_PC, UC_ARM_REG_XPSR};

uint64_t page_down(uint64_t a) { return a & ~(kPage - 1); }
uint64_t page_up(uint64_t a) { return (a + kPage - 1) & ~(kPage - 1); }

void check(uc_err err, const std::string& what) {
    if (err != UC_ERR_OK) throw std::runtime_error(what + ": " + uc_strerror(err));
}

// Lowest and highest bus address of the accelerator, from the device description.
std::pair<uint64_t, uint64_t> accelerator_span(const DeviceConfig& cfg) {
    uint64_t lo = UINT64_MAX, hi = 0;
    auto add = [&](uint64_t base, uint64_t end) {
        lo = std::min(lo, base);
        hi = std::max(hi, end);
    };
    auto add_block = [&](const RegisterBlockGeometry& b) {
        add(b.base, b.base + (cfg.quadrants - 1) * b.quadrant_stride + b.size);
    };
    auto add_array = [&](const ArrayGeometry& a) {
        add(a.base, a.base + (cfg.quadrants - 1) * a.quadrant_stride +
                        (a.instances_per_quadrant - 1) * a.instance_stride + uint64_t(a.words) * a.slot_bytes);
    };
    add_block(cfg.quadrant_regs);
    add(cfg.fifo_regs.base, cfg.fifo_regs.base + cfg.fifo_regs.size);
    add(cfg.aon_regs.base, cfg.aon_regs.base + cfg.aon_regs.size);
    add_array(cfg.data_sram);
    add_array(cfg.tram);
    add_array(cfg.kernel_mem);
    add_array(cfg.bias_mem);
    return {lo, hi};
}

}  // namespace

// An MMIO window: offsets reported by Unicorn are relative to `base`.
struct CortexM4::Mmio {
    CortexM4* cpu;
    uint64_t base;
};

CortexM4::CortexM4(sc_core::sc_module_name name, const DeviceConfig& cfg)
    : sc_module(name),
      socket("socket"),
      cfg_(cfg),
      scs_(0),
      cycle_(sc_core::sc_time(1.0 / cfg.clocks.cpu_hz, sc_core::SC_SEC)),
      irq_lines_(kExternalIrqs, false) {
    // The reset vector table is at the start of the read-only CPU region (flash).
    for (const auto& r : cfg_.cpu_regions)
        if (!r.writable) {
            scs_ = SystemControlSpace(uint32_t(r.base));
            break;
        }
    if (tlm::tlm_global_quantum::instance().get() == sc_core::SC_ZERO_TIME)
        tlm::tlm_global_quantum::instance().set(sc_core::sc_time(1, sc_core::SC_US));

    SC_HAS_PROCESS(CortexM4);
    SC_THREAD(run);
    // Unicorn (QEMU's code generator and helpers) runs on this thread's stack.
    set_stack_size(32 * 1024 * 1024);

    check(uc_open(UC_ARCH_ARM, uc_mode(UC_MODE_THUMB | UC_MODE_MCLASS), &uc_), "Unicorn uc_open");
    check(uc_ctl_set_cpu_model(uc_, UC_CPU_ARM_CORTEX_M4), "Unicorn CPU model Cortex-M4");
}

CortexM4::~CortexM4() {
    if (uc_) uc_close(uc_);
}

void CortexM4::load_elf(const std::string& path) { image_ = ElfImage::load(path); }

void CortexM4::observe_calls(uint32_t address, CallObserver done, std::function<void()> entry) {
    call_watches_.push_back(
        std::make_unique<CallWatch>(CallWatch{this, address & ~1u, std::move(done), std::move(entry)}));
}

void CortexM4::watch_writes(uint32_t begin, uint32_t end, WriteWatch written) {
    write_watches_.push_back(std::make_unique<WriteWatchRange>(WriteWatchRange{begin, end, std::move(written)}));
}

bool CortexM4::read_memory(uint32_t address, void* out, uint32_t bytes) const {
    return uc_mem_read(uc_, address, out, bytes) == UC_ERR_OK;
}

uint32_t CortexM4::read_register(int reg) const {
    uint32_t v = 0;
    uc_reg_read(uc_, reg, &v);
    return v;
}

sc_core::sc_time CortexM4::local_time() const { return local_time_at(instret_); }

sc_core::sc_time CortexM4::local_time_at(uint64_t instret) const {
    // `instret` may lie before accounted_ (an instruction inside a block whose
    // whole count is already accounted), hence the signed difference.
    const double pending =
        (double(instret) - double(accounted_)) * cfg_.cpu_timing.cycles_per_instruction + double(wait_cycles_);
    return sc_core::sc_time_stamp() + qk_.get_local_time() + pending * cycle_;
}

void CortexM4::set_irq(unsigned irqn, bool level) {
    if (irqn >= irq_lines_.size()) {
        spdlog::error("{}: interrupt line {} does not exist", name(), irqn);
        return;
    }
    irq_lines_[irqn] = level;
    if (level) irq_event_.notify();
}

// Both only raise a flag: the block hook stops Unicorn before the next block
// (the rest of the current block still runs, as on a core that takes a few
// cycles to act on the request). Stopping from inside an MMIO callback would
// make Unicorn report the PC of the block's start, so the store would run twice.
void CortexM4::request_sleep() { sleeping_ = true; }

void CortexM4::halt() { halted_ = true; }

void CortexM4::report_unhandled_exception() {
    std::string which = active_irq_ >= 0 ? "interrupt " + std::to_string(active_irq_)
                                         : std::string("an exception outside any interrupt");
    stop_with_error("unhandled exception: firmware reached its default handler while delivering " + which +
                    " (no handler installed)");
}

std::string CortexM4::describe(uint32_t address) const { return image_ ? image_->describe(address) : hex32(address); }

void CortexM4::stop_with_error(const std::string& message) {
    if (error_) return;
    error_ = message;
    // The owner reports it (on_error / error()); here only for --log-level debug.
    spdlog::debug("{}: stopped: {}", name(), message);
    halt();
    if (on_error) on_error(message);
}

void CortexM4::start_of_simulation() {
    try {
        map_memories();
        if (!image_) throw ElfError(std::string(name()) + ": no firmware loaded (call load_elf before sc_start)");
        load_image();
        reset();
    } catch (const std::exception& e) {
        stop_with_error(e.what());
    }
}

void CortexM4::map_memories() {
    for (const auto& r : cfg_.cpu_regions) {
        tlm::tlm_generic_payload trans;
        tlm::tlm_dmi dmi;
        trans.set_command(r.writable ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
        trans.set_address(r.base);
        if (!socket->get_direct_mem_ptr(trans, dmi) || dmi.get_start_address() > r.base ||
            dmi.get_end_address() < r.base + r.size - 1)
            throw std::runtime_error(std::string(name()) + ": the bus grants no direct access to " + r.name + " [" +
                                     hex32(uint32_t(r.base)) + ", +" + std::to_string(r.size) + ")");
        if (r.base % kPage || r.size % kPage)
            throw std::runtime_error(r.name + ": base and size must be multiples of 4 KiB (" + cfg_.source_path + ")");
        uint8_t* host = dmi.get_dmi_ptr() + (r.base - dmi.get_start_address());
        uint32_t perms = UC_PROT_READ | UC_PROT_EXEC | (r.writable ? UC_PROT_WRITE : 0);
        check(uc_mem_map_ptr(uc_, r.base, r.size, perms, host), "mapping " + r.name);
    }
    map_bus_window(cfg_.peripheral_base, cfg_.peripheral_size);
    auto [lo, hi] = accelerator_span(cfg_);
    map_bus_window(page_down(lo), page_up(hi) - page_down(lo));

    auto* scs = new Mmio{this, SystemControlSpace::kBase};
    windows_.emplace_back(scs);
    check(uc_mmio_map(
              uc_, SystemControlSpace::kBase, SystemControlSpace::kSize,
              [](uc_engine*, uint64_t off, unsigned, void* w) -> uint64_t {
                  auto* cpu = static_cast<Mmio*>(w)->cpu;
                  uint32_t v = 0;
                  if (!cpu->scs_.read(uint32_t(off & ~3u), v))
                      spdlog::warn("{}: read of unmodelled system register {} at {}", cpu->name(),
                                   hex32(uint32_t(SystemControlSpace::kBase + off)), cpu->describe(cpu->pc_));
                  return v >> (8 * (off & 3));
              },
              scs,
              [](uc_engine*, uint64_t off, unsigned, uint64_t value, void* w) {
                  auto* cpu = static_cast<Mmio*>(w)->cpu;
                  if (!cpu->scs_.write(uint32_t(off & ~3u), uint32_t(value)))
                      spdlog::warn("{}: write of unmodelled system register {} at {}", cpu->name(),
                                   hex32(uint32_t(SystemControlSpace::kBase + off)), cpu->describe(cpu->pc_));
              },
              scs),
          "mapping the system control space");

    uc_hook h;
    // A block hook, not a code hook: Unicorn then calls out once per block
    // instead of once per instruction, which dominated the simulation time.
    check(uc_hook_add(uc_, &h, UC_HOOK_BLOCK, reinterpret_cast<void*>(&CortexM4::hook_block), this, 1, 0),
          "block hook");
    check(uc_hook_add(uc_, &h, UC_HOOK_MEM_UNMAPPED, reinterpret_cast<void*>(&CortexM4::hook_unmapped), this, 1, 0),
          "unmapped-access hook");
    // Only called when a store hits read-only memory: costs nothing otherwise.
    check(uc_hook_add(uc_, &h, UC_HOOK_MEM_WRITE_PROT, reinterpret_cast<void*>(&CortexM4::hook_write_protected), this,
                      1, 0),
          "write-protection hook");
    install_wait_state_hooks();
    install_call_hooks();
    install_write_watches();
}

void CortexM4::install_write_watches() {
    for (const auto& w : write_watches_) {
        uc_hook h;
        check(uc_hook_add(uc_, &h, UC_HOOK_MEM_WRITE, reinterpret_cast<void*>(&CortexM4::hook_watched_write), w.get(),
                          w->begin, w->end),
              "write watch at " + hex32(w->begin));
    }
}

void CortexM4::install_wait_state_hooks() {
    // A memory hook makes Unicorn leave its fast path for every access in the
    // hooked range, so a region whose wait states are zero gets none.
    for (const auto& r : cfg_.cpu_regions) {
        const uint32_t ws = r.writable ? cfg_.bus.sram_wait_states : cfg_.bus.flash_wait_states;
        if (ws == 0) continue;
        // Flash is read-only to the firmware: only its data reads wait (fetches hit the cache).
        const int kinds = r.writable ? (UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE) : UC_HOOK_MEM_READ;
        wait_state_hooks_.push_back(std::make_unique<WaitStateHook>(WaitStateHook{this, ws}));
        uc_hook h;
        check(uc_hook_add(uc_, &h, kinds, reinterpret_cast<void*>(&CortexM4::hook_wait_states),
                          wait_state_hooks_.back().get(), r.base, r.base + r.size - 1),
              "wait-state hook for " + r.name);
    }
}

void CortexM4::install_call_hooks() {
    for (const auto& w : call_watches_) {
        uc_hook h;
        check(uc_hook_add(uc_, &h, UC_HOOK_CODE, reinterpret_cast<void*>(&CortexM4::hook_call_entry), w.get(),
                          w->address, w->address),
              "call hook at " + hex32(w->address));
    }
}

void CortexM4::map_bus_window(uint64_t base, uint64_t size) {
    auto* w = new Mmio{this, base};
    windows_.emplace_back(w);
    check(uc_mmio_map(uc_, base, size, &CortexM4::mmio_read, w, &CortexM4::mmio_write, w),
          "mapping bus window " + hex32(uint32_t(base)));
}

void CortexM4::load_image() {
    for (const auto& seg : image_->segments()) {
        uint64_t end = uint64_t(seg.address) + seg.bytes.size();
        const CpuRegion* region = nullptr;
        for (const auto& r : cfg_.cpu_regions)
            if (seg.address >= r.base && end <= r.base + r.size) region = &r;
        if (!region)
            throw ElfError(image_->path() + ": segment [" + hex32(seg.address) + ", +" +
                           std::to_string(seg.bytes.size()) + ") lies outside flash/SRAM of " + cfg_.source_path);
        // Backdoor load (like a programmer): bypasses the read-only protection of flash.
        check(uc_mem_write(uc_, seg.address, seg.bytes.data(), seg.bytes.size()), "loading " + image_->path());
    }
}

void CortexM4::reset() {
    uint32_t sp = read_word(scs_.vtor());
    uint32_t entry = read_word(scs_.vtor() + 4);
    check(uc_reg_write(uc_, UC_ARM_REG_SP, &sp), "setting SP");
    pc_ = entry & ~1u;
    spdlog::debug("{}: reset, SP={} PC={} ({})", name(), hex32(sp), hex32(pc_), describe(pc_));
}

uint32_t CortexM4::read_word(uint32_t address) {
    uint32_t v = 0;
    if (uc_mem_read(uc_, address, &v, 4) != UC_ERR_OK)
        throw std::runtime_error("cannot read CPU memory at " + hex32(address));
    return v;
}

void CortexM4::write_word(uint32_t address, uint32_t value) {
    if (uc_mem_write(uc_, address, &value, 4) != UC_ERR_OK)
        throw std::runtime_error("cannot write CPU memory at " + hex32(address));
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
            spdlog::debug("{}: sleeping at {} ({})", name(), describe(pc_), sc_core::sc_time_stamp().to_string());
            // The line may rise while sync() waits, so look again before sleeping on the event.
            qk_.sync();
            sample_irq_lines();
            const bool waits = !scs_.next_interrupt() && !halted_;
            if (waits && on_sleep_change) on_sleep_change(true);
            while (!scs_.next_interrupt() && !halted_) {
                sc_core::wait(irq_event_);
                sample_irq_lines();
            }
            if (waits && on_sleep_change) on_sleep_change(false);
            qk_.reset();
            sleeping_ = false;
            continue;
        }
        execute_chunk();
        if (qk_.need_sync()) qk_.sync();
    }
}

void CortexM4::execute_chunk() {
    // Run until the local quantum is used up (at least one instruction).
    sc_core::sc_time quantum = tlm::tlm_global_quantum::instance().compute_local_quantum();
    sc_core::sc_time local = qk_.get_local_time();
    uint64_t budget = quantum > local ? std::max<uint64_t>(1, uint64_t((quantum - local) / cycle_)) : 1;
    chunk_end_ = instret_ + std::max<uint64_t>(1, budget / cfg_.cpu_timing.cycles_per_instruction);
    stopping_ = false;
    unmapped_address_.reset();
    protected_address_.reset();
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
    // Unicorn restores the exact PC of a faulting instruction; pc_ is only its block's start.
    const uint32_t at = (next >= block_start_ && next < block_end_) ? next : pc_;
    std::string where = " at PC " + hex32(at) + " (" + describe(at) + ")";
    if (unmapped_address_)
        stop_with_error("bus fault: access to unmapped address " + hex32(uint32_t(*unmapped_address_)) + where);
    else if (protected_address_) {
        if (on_protected_write) on_protected_write(uint32_t(*protected_address_), at);
        stop_with_error("bus fault: write to read-only memory at " + hex32(uint32_t(*protected_address_)) + " (" +
                        describe(uint32_t(*protected_address_)) + ")" + where);
    } else
        stop_with_error(std::string("CPU exception: ") + uc_strerror(err) + where + ", next PC " + hex32(next));
}

void CortexM4::hook_block(uc_struct* uc, uint64_t address, uint32_t size, void* self) {
    // Called before each translated block; stopping here leaves the whole
    // block unexecuted, so the PC Unicorn reports is exactly where to resume.
    // A chunk therefore ends at the first block boundary past its budget.
    auto* cpu = static_cast<CortexM4*>(self);
    if (cpu->sleeping_ || cpu->halted_ || cpu->instret_ >= cpu->chunk_end_) {
        cpu->stopping_ = true;
        cpu->stop_address_ = uint32_t(address);
        uc_emu_stop(uc);
        return;
    }
    cpu->pc_ = uint32_t(address);
    // A return address is always a branch target, hence a block start. Two
    // observers of one function (or a tail call between observed functions)
    // share a return address: they return together.
    while (!cpu->open_calls_.empty() && uint32_t(address) == cpu->open_calls_.back().return_address)
        cpu->call_returned();
    cpu->block_start_ = uint32_t(address);
    cpu->block_end_ = uint32_t(address + size);
    cpu->block_base_ = cpu->instret_;
    cpu->instret_ += cpu->block_instructions(uint32_t(address), size);
}

uint32_t CortexM4::block_instructions(uint32_t address, uint32_t bytes) {
    const uint64_t key = (uint64_t(bytes) << 32) | address;
    auto cached = block_counts_.find(key);
    if (cached != block_counts_.end()) return cached->second;
    // Thumb-2: a halfword whose top five bits are 0b11101, 0b11110 or 0b11111
    // is the first half of a 32-bit instruction; any other is a 16-bit one.
    uint32_t count = 0;
    for (uint32_t offset = 0; offset < bytes; ++count) {
        uint16_t halfword = 0;
        if (uc_mem_read(uc_, address + offset, &halfword, sizeof halfword) != UC_ERR_OK) {
            // Unicorn just translated this code, so it is readable; count the rest as 16-bit.
            count += (bytes - offset) / 2;
            break;
        }
        offset += (halfword >> 11) >= 0x1D ? 4 : 2;
    }
    block_counts_.emplace(key, count);
    return count;
}

void CortexM4::hook_call_entry(uc_struct* uc, uint64_t, uint32_t, void* watch) {
    const auto* w = static_cast<const CallWatch*>(watch);
    CortexM4* cpu = w->cpu;
    // hook_block runs first; if it stopped Unicorn here, the instruction runs
    // again in the next chunk and is seen then.
    if (cpu->stopping_ || cpu->halted_) return;
    uint32_t lr = 0;
    uc_reg_read(uc, UC_ARM_REG_LR, &lr);
    // The block's count is already in instret_: take the time at the end of
    // this entry instruction, as if instructions were counted one by one.
    sc_core::sc_time entered = cpu->local_time();
    if (w->address >= cpu->block_start_ && w->address < cpu->block_end_)
        entered = cpu->local_time_at(cpu->block_base_ +
                                     cpu->block_instructions(cpu->block_start_, w->address - cpu->block_start_) + 1);
    cpu->open_calls_.push_back({w, lr & ~1u, entered});
    if (w->entry) w->entry();
}

void CortexM4::call_returned() {
    const OpenCall call = open_calls_.back();
    open_calls_.pop_back();
    call.watch->done(call.entered, local_time());
}

void CortexM4::hook_wait_states(uc_struct*, uc_mem_type, uint64_t, int, int64_t, void* hook) {
    const auto* h = static_cast<const WaitStateHook*>(hook);
    h->cpu->wait_cycles_ += h->cycles;
}

bool CortexM4::hook_write_protected(uc_struct*, uc_mem_type, uint64_t address, int, int64_t, void* self) {
    static_cast<CortexM4*>(self)->protected_address_ = address;
    return false;  // not handled: Unicorn stops with UC_ERR_WRITE_PROT
}

void CortexM4::hook_watched_write(uc_struct*, uc_mem_type, uint64_t address, int size, int64_t, void* watch) {
    const auto* w = static_cast<const WriteWatchRange*>(watch);
    w->written(uint32_t(address), unsigned(size));
}

bool CortexM4::hook_unmapped(uc_struct*, uc_mem_type, uint64_t address, int, int64_t, void* self) {
    static_cast<CortexM4*>(self)->unmapped_address_ = address;
    return false;  // not handled: Unicorn stops with an error
}

// ---------------------------------------------------------------- interrupts

void CortexM4::sample_irq_lines() {
    // Level-sensitive lines: a high line keeps its interrupt pending (also
    // re-pends it after the handler returns, as the NVIC does).
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
    spdlog::debug("{}: interrupt {} -> {} at {}", name(), *irq, describe(vector & ~1u),
                  sc_core::sc_time_stamp().to_string());
    pc_ = vector & ~1u;
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
    spdlog::debug("{}: return from interrupt {} to {}", name(), active_irq_, describe(pc_));
    active_irq_ = -1;
    qk_.inc(double(cfg_.cpu_timing.exception_return_cycles) * cycle_);
}

// ---------------------------------------------------------------- bus

void CortexM4::account_instructions() {
    const double cycles = double(instret_ - accounted_) * cfg_.cpu_timing.cycles_per_instruction + double(wait_cycles_);
    qk_.inc(cycles * cycle_);
    accounted_ = instret_;
    wait_cycles_ = 0;
}

uint64_t CortexM4::mmio_read(uc_struct*, uint64_t offset, unsigned size, void* window) {
    auto* w = static_cast<Mmio*>(window);
    return w->cpu->bus_read(uint32_t(w->base + offset), size);
}

void CortexM4::mmio_write(uc_struct*, uint64_t offset, unsigned size, uint64_t value, void* window) {
    auto* w = static_cast<Mmio*>(window);
    w->cpu->bus_write(uint32_t(w->base + offset), size, value);
}

uint64_t CortexM4::bus_read(uint32_t address, unsigned size) {
    uint8_t data[8] = {};
    if (!bus_transport(tlm::TLM_READ_COMMAND, address, size, data)) return 0;
    uint64_t v = 0;
    std::memcpy(&v, data, size);
    return v;
}

void CortexM4::bus_write(uint32_t address, unsigned size, uint64_t value) {
    uint8_t data[8];
    std::memcpy(data, &value, sizeof data);
    bus_transport(tlm::TLM_WRITE_COMMAND, address, size, data);
}

bool CortexM4::bus_transport(tlm::tlm_command cmd, uint32_t address, unsigned size, uint8_t* data) {
    if (halted_) return false;  // after a fault, the rest of the block must not touch the bus
    if (bus_watches_) check_bus_watchpoints(cmd, address, size);
    account_instructions();
    // One payload for every access (the CPU makes one at a time): a payload
    // allocates its extension array, and one living in a member rather than on
    // this coroutine's stack is neither re-allocated per access nor, when the
    // simulation ends with the CPU suspended mid-access, mistaken for a leak.
    tlm::tlm_generic_payload& trans = bus_payload_;
    trans.set_command(cmd);
    trans.set_address(address);
    trans.set_data_ptr(data);
    trans.set_data_length(size);
    trans.set_streaming_width(size);
    trans.set_byte_enable_ptr(nullptr);
    trans.set_dmi_allowed(false);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    // FIFO pushes and FIFO_STAT polls race with the accelerator draining the FIFOs:
    // catch up with SystemC time first so they happen at this CPU's own instant.
    // The accelerator serves them at sc_time_stamp() (FIFO_STAT is live state, not
    // a timed reply), so a push would land up to one quantum early and a poll
    // would see a FIFO state up to one quantum old.
    // A read may skip that when nothing is scheduled in the simulation up to this
    // CPU's instant: the accelerator changes FIFO state only when one of its
    // processes runs, so the state now is the state then, and a spinning poll
    // loop then costs one sync per quantum instead of one per iteration. Pushes
    // always sync: they wake the accelerator at their own time.
    const sc_core::sc_time local = qk_.get_local_time();
    if (address - cfg_.fifo_regs.base < cfg_.fifo_regs.size && local > sc_core::SC_ZERO_TIME &&
        (cmd == tlm::TLM_WRITE_COMMAND || !(local < sc_core::sc_time_to_pending_activity())))
        qk_.sync();
    sc_core::sc_time delay = qk_.get_local_time();
    socket->b_transport(trans, delay);
    qk_.set(delay);
    if (trans.is_response_error()) {
        stop_with_error(std::string("bus fault: ") + (cmd == tlm::TLM_READ_COMMAND ? "read" : "write") + " of " +
                        std::to_string(size) + " byte(s) at " + hex32(address) + " answered " +
                        trans.get_response_string() + ", in the instruction block at PC " + hex32(pc_) + " (" +
                        describe(pc_) + ")");  // Unicorn does not expose the exact PC inside a memory callback
        return false;
    }
    // A polling loop must let the accelerator's time advance.
    if (qk_.need_sync()) qk_.sync();
    return true;
}

}  // namespace ai8x
