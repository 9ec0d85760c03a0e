#include "firmware/host/riscv_core.h"

#include <spdlog/spdlog.h>

#include <elf.h>

namespace ai8x {

namespace {

constexpr uint32_t kWfi = 0x10500073;  // the WFI instruction (RISC-V privileged spec)
constexpr uint32_t kMstatusMie = 1u << 3;
constexpr uint32_t kMstatusMpie = 1u << 7;
constexpr uint32_t kMstatusMpp = 3u << 11;  // previous privilege: machine mode
constexpr uint32_t kMcauseInterrupt = 1u << 31;

// Offsets in the interrupt controller (core_rv32.h): INTR at 0x00, EVENT at 0x20.
enum IntcRegister : uint32_t {
    kIrqEnable = 0x00,
    kIrqPending = 0x04,
    kIrqSetPending = 0x08,
    kIrqClearPending = 0x0C,
    kEventEnable = 0x20,
    kEventPending = 0x24,
    kEventSetPending = 0x28,
    kEventClearPending = 0x2C,
    kHalfStride = 0x10,  // irq1_* / event1_* (interrupts 32..63) follow irq0_* / event0_*
};

uint64_t half(uint64_t v, unsigned which) { return which ? v >> 32 : v & 0xFFFFFFFFu; }
void set_half(uint64_t& v, unsigned which, uint32_t bits) {
    const unsigned shift = which ? 32 : 0;
    v = (v & ~(uint64_t(0xFFFFFFFFu) << shift)) | (uint64_t(bits) << shift);
}

}  // namespace

RiscvCore::RiscvCore(sc_core::sc_module_name name, const DeviceConfig& cfg)
    : UnicornCpu(name, cfg, UC_ARCH_RISCV, UC_MODE_RISCV32, CoreTiming{cfg.riscv.hz, cfg.riscv.cycles_per_instruction},
                 EM_RISCV),
      lines_(std::min<uint32_t>(cfg.riscv.irq_count, 64), false) {
    SC_HAS_PROCESS(RiscvCore);
    SC_THREAD(run);
    set_stack_size(32 * 1024 * 1024);  // Unicorn runs on this thread's stack
}

void RiscvCore::set_irq(unsigned irq, bool level) {
    if (irq >= lines_.size()) {
        spdlog::error("{}: interrupt line {} does not exist", name(), irq);
        return;
    }
    if (level && !lines_[irq]) {
        irq_latched_ |= uint64_t(1) << irq;
        event_latched_ |= uint64_t(1) << irq;
        wake_event_.notify();
    }
    lines_[irq] = level;
}

void RiscvCore::release(uint32_t boot_address) {
    if (released_) return;
    released_ = true;
    boot_address_ = boot_address;
    pc_ = boot_address;
    spdlog::debug("{}: released from reset at {} ({})", name(), hex32(boot_address), describe(boot_address));
    wake_event_.notify();
}

void RiscvCore::report_unhandled_exception() {
    stop_with_error("unhandled interrupt: RISC-V firmware reached its default handler" +
                    (active_irq_ >= 0 ? " while delivering interrupt " + std::to_string(active_irq_)
                                      : std::string(" outside any interrupt")) +
                    " (no handler installed)");
}

void RiscvCore::start_of_simulation() {
    try {
        map_memories();
        map_interrupt_controller();
        if (image_) load_image();
    } catch (const std::exception& e) {
        stop_with_error(e.what());
    }
}

void RiscvCore::map_interrupt_controller() {
    const RegisterBlockGeometry& g = cfg_.riscv.intc;
    const uint64_t base = g.base & ~uint64_t(0xFFF);
    const uint64_t size = ((g.base + g.size + 0xFFF) & ~uint64_t(0xFFF)) - base;
    // Core-local (not on the shared bus): its callbacks get the core itself.
    check_uc(uc_mmio_map(
                 uc_, base, size,
                 [](uc_engine*, uint64_t off, unsigned, void* self) -> uint64_t {
                     auto* core = static_cast<RiscvCore*>(self);
                     const uint64_t at = (core->cfg_.riscv.intc.base & ~uint64_t(0xFFF)) + off;
                     return core->intc_read(uint32_t(at - core->cfg_.riscv.intc.base));
                 },
                 this,
                 [](uc_engine*, uint64_t off, unsigned, uint64_t value, void* self) {
                     auto* core = static_cast<RiscvCore*>(self);
                     const uint64_t at = (core->cfg_.riscv.intc.base & ~uint64_t(0xFFF)) + off;
                     core->intc_write(uint32_t(at - core->cfg_.riscv.intc.base), uint32_t(value));
                 },
                 this),
             "mapping the RISC-V interrupt controller");
}

uint64_t RiscvCore::pending() const {
    uint64_t p = irq_latched_;
    for (size_t i = 0; i < lines_.size(); ++i)
        if (lines_[i]) p |= uint64_t(1) << i;
    return p;
}

uint32_t RiscvCore::intc_read(uint32_t offset) {
    const unsigned which = (offset & kHalfStride) ? 1 : 0;
    switch (offset & ~kHalfStride) {
        case kIrqEnable: return uint32_t(half(irq_enable_, which));
        case kIrqPending: return uint32_t(half(pending(), which));
        case kEventEnable: return uint32_t(half(event_enable_, which));
        case kEventPending: return uint32_t(half(event_latched_, which));
        case kIrqSetPending:
        case kIrqClearPending:
        case kEventSetPending:
        case kEventClearPending: return 0;  // write-only strobes
    }
    const std::string reg = hex32(uint32_t(cfg_.riscv.intc.base + offset));
    unmodelled_.warn("read of unmodelled interrupt controller register " + reg,
                     fmt::format("{}: read of unmodelled interrupt controller register {}", name(), reg));
    return 0;
}

void RiscvCore::intc_write(uint32_t offset, uint32_t value) {
    const unsigned which = (offset & kHalfStride) ? 1 : 0;
    const uint64_t bits = uint64_t(value) << (which ? 32 : 0);
    switch (offset & ~kHalfStride) {
        case kIrqEnable: set_half(irq_enable_, which, value); return;
        case kEventEnable: set_half(event_enable_, which, value); return;
        case kIrqSetPending:
            irq_latched_ |= bits;
            wake_event_.notify();
            return;
        case kIrqClearPending: irq_latched_ &= ~bits; return;
        case kEventSetPending:
            event_latched_ |= bits;
            wake_event_.notify();
            return;
        case kEventClearPending: event_latched_ &= ~bits; return;
        case kIrqPending:
        case kEventPending: return;  // read-only
    }
    const std::string reg = hex32(uint32_t(cfg_.riscv.intc.base + offset));
    unmodelled_.warn("write of unmodelled interrupt controller register " + reg,
                     fmt::format("{}: write of unmodelled interrupt controller register {}", name(), reg));
}

bool RiscvCore::wake_pending() const { return (pending() & irq_enable_) != 0 || (event_latched_ & event_enable_) != 0; }

// RV32C: the two low bits of every 32-bit instruction are 0b11; any other
// value starts a 16-bit compressed one.
uint32_t RiscvCore::instruction_bytes(uint16_t halfword) const { return (halfword & 3) == 3 ? 4 : 2; }

int RiscvCore::return_address_register() const { return UC_RISCV_REG_RA; }

int RiscvCore::return_value_register() const { return UC_RISCV_REG_A0; }

bool RiscvCore::take_interrupt() {
    uint32_t mstatus = 0;
    uc_reg_read(uc_, UC_RISCV_REG_MSTATUS, &mstatus);
    if (!(mstatus & kMstatusMie)) return false;
    const uint64_t ready = pending() & irq_enable_;
    if (!ready) return false;
    unsigned irq = 0;
    while (!(ready >> irq & 1)) ++irq;
    // A machine-mode trap: save the PC, disable interrupts (MIE into MPIE), jump to the vector.
    uint32_t mepc = pc_, mcause = kMcauseInterrupt | irq;
    mstatus = (mstatus & ~kMstatusMie) | kMstatusMpie | kMstatusMpp;
    uc_reg_write(uc_, UC_RISCV_REG_MEPC, &mepc);
    uc_reg_write(uc_, UC_RISCV_REG_MCAUSE, &mcause);
    uc_reg_write(uc_, UC_RISCV_REG_MSTATUS, &mstatus);
    irq_latched_ &= ~(uint64_t(1) << irq);
    active_irq_ = int(irq);
    pc_ = boot_address_ + 4 * irq;
    if (spdlog::should_log(spdlog::level::debug))  // the arguments cost more than the rest of the interrupt
        spdlog::debug("{}: interrupt {} -> {} at {}", name(), irq, describe(pc_), sc_core::sc_time_stamp().to_string());
    qk_.inc(double(cfg_.riscv.interrupt_entry_cycles) * cycle_);
    return true;
}

void RiscvCore::run() {
    // Held in reset until the Arm enables the core's clock.
    while (!released_) sc_core::wait(wake_event_);
    if (!image_) {
        stop_with_error(std::string(name()) + ": released by the Arm, but the firmware has no RISC-V image");
        return;
    }
    qk_.reset();
    while (!halted_) {
        if (take_interrupt()) sleeping_ = false;  // WFI ends when an interrupt is taken
        if (sleeping_) {
            if (spdlog::should_log(spdlog::level::debug))
                spdlog::debug("{}: sleeping at {} ({})", name(), describe(pc_), sc_core::sc_time_stamp().to_string());
            qk_.sync();
            sleep_until([this] { return wake_pending(); }, wake_event_);
            continue;
        }
        execute_chunk();
        if (qk_.need_sync()) qk_.sync();
    }
}

void RiscvCore::execute_chunk() {
    begin_chunk();
    uc_err err = uc_emu_start(uc_, pc_, 0, 0, 0);
    account_instructions();
    uint32_t next = 0;
    uc_reg_read(uc_, UC_RISCV_REG_PC, &next);
    // QEMU does not store the PC when one block jumps straight to the next,
    // so after a stop in the block hook the register may be stale.
    if (err == UC_ERR_OK && stopping_) next = stop_address_;
    if (halted_) return;
    if (err == UC_ERR_OK) {
        if (!stopping_) {
            // Unicorn returns by itself only when QEMU halts the core: on WFI.
            uint32_t insn = 0;
            if (next >= 4 && uc_mem_read(uc_, next - 4, &insn, 4) == UC_ERR_OK && insn == kWfi) {
                sleeping_ = true;
            } else {
                stop_with_error("RISC-V core stopped without a reason at " + hex32(next) + " (" + describe(next) + ")");
                return;
            }
        }
        const uint32_t last = pc_;
        pc_ = next;
        if (pc_ == 0) stop_with_error("jump to address 0x00000000 (null function pointer?) from " + describe(last));
        return;
    }
    stop_on_fault(err, next, "RISC-V core");
}

}  // namespace ai8x
