#include "firmware/host/soc_peripherals.h"

#include <cstring>

#include <spdlog/spdlog.h>

#include "firmware/host/elf_image.h"
#include "tlm/sync_hint.h"

namespace ai8x {

namespace {
// MAX78000 peripheral base addresses (device data sheet / SDK device header).
constexpr uint64_t kGcrBase = 0x40000000, kGcfrBase = 0x40005800;
constexpr uint64_t kGpio0Base = 0x40008000, kGpio1Base = 0x40009000, kGpio2Base = 0x40080400;
constexpr uint64_t kBlockSize = 0x400;
// Written by the programs of the vendor's RTL-simulation folders before they
// switch to the 96 MHz oscillator: TME (test-mode enable, not in the MSDK) and
// MCR IPO_MTRIM ("96M trim"). Stored; they change nothing on the virtual board.
constexpr uint64_t kTmeBase = 0x40000C00, kMcrBase = 0x40006C00;

// GCR CLKCTRL: bits 20..16 enable the oscillators, bits 28..24 say they are
// ready (MSDK gcr_regs.h: IPO_EN 19 / IPO_RDY 27, MAX32650 HIRC96M_EN / _RDY);
// SYSCLK_RDY (13) says the clock switch is done. The virtual oscillators are
// ready as soon as they are enabled.
constexpr uint32_t kOscEnableMask = 0x1Fu << 16, kOscReadyShift = 8, kSysclkReady = 1u << 13;

template <typename Device>
const Device* mapped_device(const std::vector<Device>& devices, uint64_t address, unsigned size) {
    for (const Device& d : devices)
        if (address >= d.base && address + size <= d.base + d.size) return &d;
    return nullptr;
}

// GCR.PCLKDIV fields of the CNN clock.
constexpr unsigned kCnnDivPos = 14, kCnnSelPos = 17;
constexpr uint32_t kCnnDivMask = 0x7, kCnnSelMask = 0x3;
}  // namespace

SocPeripherals::SocPeripherals(sc_core::sc_module_name name, const DeviceConfig& cfg)
    : sc_module(name), socket("socket"), cfg_(cfg) {
    socket.register_b_transport(this, &SocPeripherals::b_transport);
    socket.register_transport_dbg(this, &SocPeripherals::transport_dbg);
    socket.register_get_direct_mem_ptr(this, &SocPeripherals::get_direct_mem_ptr);

    blocks_.push_back(std::make_unique<Block>(Block{kGcrBase, kBlockSize,
                                                    RegisterFile("GCR", {
                                                                            // name        offset reset       writable
                                                                            {"SYSCTRL", 0x00, 0x00000000, 0xFFFFFFFF},
                                                                            {"RST0", 0x04, 0x00000000, 0xFFFFFFFF},
                                                                            {"CLKCTRL", 0x08, 0x00000000, 0xFFFFFFFF},
                                                                            {"PM", 0x0C, 0x00000000, 0xFFFFFFFF},
                                                                            {"IPLL_CTRL", 0x10, 0x00000000, 0xFFFFFFFF},
                                                                            {"PCLKDIV", 0x18, 0x00000000, 0xFFFFFFFF},
                                                                            {"PCLKDIS0", 0x24, 0xFFFFFFFF, 0xFFFFFFFF},
                                                                            {"MEMCTRL", 0x28, 0x00000000, 0xFFFFFFFF},
                                                                            {"MEMZ", 0x2C, 0x00000000, 0xFFFFFFFF},
                                                                            {"SYSST", 0x40, 0x00000000, 0x00000000},
                                                                            {"RST1", 0x44, 0x00000000, 0xFFFFFFFF},
                                                                            {"PCLKDIS1", 0x48, 0xFFFFFFFF, 0xFFFFFFFF},
                                                                        })}));
    // IPLL_CTRL (MSDK gcr_regs.h): EN is bit 0, RDY bit 1. A device with a PLL
    // (configs: clocks.ipll_hz) locks at once; without one RDY never rises.
    if (cfg_.clocks.ipll_hz > 0)
        blocks_.back()->regs.on_write("IPLL_CTRL", [this](uint32_t v) {
            RegisterFile& gcr = blocks_.front()->regs;
            gcr.value("IPLL_CTRL") = (v & 1u) ? (v | 2u) : (v & ~2u);
        });
    blocks_.back()->regs.on_write("CLKCTRL", [this](uint32_t v) {
        RegisterFile& gcr = blocks_.front()->regs;
        const uint32_t ready = (v & kOscEnableMask) << kOscReadyShift;
        gcr.value("CLKCTRL") = (v & ~(kOscEnableMask << kOscReadyShift)) | ready | kSysclkReady;
    });
    blocks_.back()->regs.on_write("PCLKDIV", [this](uint32_t v) {
        pclkdiv_ = v;
        spdlog::debug("{}: CNN clock {:.3f} MHz", this->name(), cnn_clock_hz() / 1e6);
        if (on_cnn_clock) on_cnn_clock(cnn_clock_hz());
    });
    blocks_.back()->regs.on_write("PCLKDIS0", [this](uint32_t v) {
        spdlog::debug("{}: CNN peripheral clock {}", this->name(), (v >> 25) & 1 ? "gated" : "running");
        if (on_cnn_peripheral_clock) on_cnn_peripheral_clock(!((v >> 25) & 1));
    });

    blocks_.push_back(std::make_unique<Block>(
        Block{kGcfrBase, kBlockSize,
              RegisterFile("GCFR", {
                                       // name   offset reset writable: one bit per CNN quadrant
                                       {"REG0", 0x00, 0x0, 0xF},  // power
                                       {"REG1", 0x04, 0x0, 0xF},  // memory mask
                                       {"REG2", 0x08, 0xF, 0xF},  // isolation (isolated at reset)
                                       {"REG3", 0x0C, 0x0, 0xF},  // reset
                                   })}));
    for (unsigned i = 0; i < 4; ++i) {
        const std::string reg = "REG" + std::to_string(i);
        blocks_.back()->regs.on_write(reg, [this, i](uint32_t v) {
            if (on_cnn_power) on_cnn_power(i, v);
        });
    }

    blocks_.push_back(std::make_unique<Block>(Block{kTmeBase, kBlockSize, RegisterFile("TME", {{"TME", 0x00, 0, 1}})}));
    blocks_.push_back(std::make_unique<Block>(Block{kMcrBase, kBlockSize,
                                                    RegisterFile("MCR", {
                                                                            {"ECCEN", 0x00, 0, 0xFFFFFFFF},
                                                                            {"IPO_MTRIM", 0x04, 0, 0xFFFFFFFF},
                                                                            {"OUTEN", 0x08, 0, 0xFFFFFFFF},
                                                                            {"CMP_CTRL", 0x0C, 0, 0xFFFFFFFF},
                                                                            {"CTRL", 0x10, 0, 0xFFFFFFFF},
                                                                        })}));
    add_dual_core_blocks();
    add_gpio("GPIO0", kGpio0Base);
    add_gpio("GPIO1", kGpio1Base);
    add_gpio("GPIO2", kGpio2Base);
}

// FCR (RISC-V boot address), PWRSEQ (low-power wake-up enables) and SEMA
// (semaphores and the inter-core interrupt registers), at soc.* of the device
// description. What the start-up protocol does with them: docs/riscv.md.
void SocPeripherals::add_dual_core_blocks() {
    Block* gcr = blocks_.front().get();
    gcr->regs.on_write("PCLKDIS1", [this](uint32_t v) {
        if ((v >> cfg_.soc.riscv_clock_bit) & 1) return;  // RISC-V clock still gated: held in reset
        const uint32_t boot = register_value("FCR", "URVBOOTADDR");
        spdlog::debug("{}: RISC-V core clock enabled, boot address {}", this->name(), hex32(boot));
        if (on_riscv_release) on_riscv_release(boot);
    });
    blocks_.push_back(std::make_unique<Block>(Block{cfg_.soc.fcr.base, cfg_.soc.fcr.size,
                                                    RegisterFile("FCR", {
                                                                            // name         offset reset writable
                                                                            {"FCTRL0", 0x00, 0, 0xFFFFFFFF},
                                                                            {"AUTOCAL0", 0x04, 0, 0xFFFFFFFF},
                                                                            {"AUTOCAL1", 0x08, 0, 0xFFFFFFFF},
                                                                            {"AUTOCAL2", 0x0C, 0, 0xFFFFFFFF},
                                                                            {"URVBOOTADDR", 0x10, 0, 0xFFFFFFFF},
                                                                            {"URVCTRL", 0x14, 0, 0xFFFFFFFF},
                                                                        })}));
    blocks_.push_back(std::make_unique<Block>(Block{cfg_.soc.pwrseq.base, cfg_.soc.pwrseq.size,
                                                    RegisterFile("PWRSEQ", {
                                                                               {"LPCN", 0x00, 0, 0xFFFFFFFF},
                                                                               // Wake-up status, write 1 to clear:
                                                                               // no wake-up source sets them here.
                                                                               {"LPWKST0", 0x04, 0, 0},
                                                                               {"LPWKEN0", 0x08, 0, 0xFFFFFFFF},
                                                                               {"LPWKST1", 0x0C, 0, 0},
                                                                               {"LPWKEN1", 0x10, 0, 0xFFFFFFFF},
                                                                               {"LPWKST2", 0x14, 0, 0},
                                                                               {"LPWKEN2", 0x18, 0, 0xFFFFFFFF},
                                                                               {"LPWKST3", 0x1C, 0, 0},
                                                                               {"LPWKEN3", 0x20, 0, 0xFFFFFFFF},
                                                                               {"LPPWST", 0x30, 0, 0xFFFFFFFF},
                                                                               {"LPPWEN", 0x34, 0, 0xFFFFFFFF},
                                                                           })}));
    blocks_.push_back(std::make_unique<Block>(Block{
        cfg_.soc.sema.base, cfg_.soc.sema.size,
        RegisterFile("SEMA", {
                                 // name    offset reset writable
                                 {"SEMA0", 0x00, 0, 0x1},
                                 {"SEMA1", 0x04, 0, 0x1},
                                 {"SEMA2", 0x08, 0, 0x1},
                                 {"SEMA3", 0x0C, 0, 0x1},
                                 {"SEMA4", 0x10, 0, 0x1},
                                 {"SEMA5", 0x14, 0, 0x1},
                                 {"SEMA6", 0x18, 0, 0x1},
                                 {"SEMA7", 0x1C, 0, 0x1},
                                 {"IRQ0", 0x40, 0, 0x00010001},  // EN bit 0, CM4_IRQ bit 16
                                 {"MAIL0", 0x44, 0, 0xFFFFFFFF},
                                 // EN bit 0, RV32_IRQ bit 16: stored (generated code never interrupts the RISC-V core)
                                 {"IRQ1", 0x48, 0, 0x00010001},
                                 {"MAIL1", 0x4C, 0, 0xFFFFFFFF},
                                 {"STATUS", 0x100, 0, 0},
                             })}));
    RegisterFile& r = blocks_.back()->regs;
    r.on_write("IRQ0", [this](uint32_t v) {
        if (on_arm_irq_from_riscv) on_arm_irq_from_riscv((v & 1) && (v >> 16 & 1));
    });
    // A semaphore read is a test-and-set: it returns the prior state and takes it.
    for (unsigned i = 0; i < 8; ++i) {
        const std::string n = "SEMA" + std::to_string(i);
        r.on_read(n, [&r, n, i] {
            const uint32_t prior = r.value(n) & 1;
            r.value(n) = 1;
            r.value("STATUS") |= 1u << i;
            return prior;
        });
        r.on_write(n, [&r, n, i](uint32_t v) {
            if (!(v & 1)) r.value("STATUS") &= ~(1u << i);
            r.value(n) = v & 1;
        });
    }
}

void SocPeripherals::add_gpio(const std::string& name, uint64_t base) {
    blocks_.push_back(std::make_unique<Block>(Block{base, kBlockSize,
                                                    RegisterFile(name, {
                                                                           // name        offset reset writable
                                                                           {"EN0", 0x00, 0xFFFFFFFF, 0xFFFFFFFF},
                                                                           {"EN0_SET", 0x04, 0, 0xFFFFFFFF},
                                                                           {"EN0_CLR", 0x08, 0, 0xFFFFFFFF},
                                                                           {"OUTEN", 0x0C, 0, 0xFFFFFFFF},
                                                                           {"OUTEN_SET", 0x10, 0, 0xFFFFFFFF},
                                                                           {"OUTEN_CLR", 0x14, 0, 0xFFFFFFFF},
                                                                           {"OUT", 0x18, 0, 0xFFFFFFFF},
                                                                           {"OUT_SET", 0x1C, 0, 0xFFFFFFFF},
                                                                           {"OUT_CLR", 0x20, 0, 0xFFFFFFFF},
                                                                           {"IN", 0x24, 0, 0},
                                                                       })}));
    RegisterFile& r = blocks_.back()->regs;
    // The *_SET/*_CLR aliases act on their register and read as zero.
    auto alias = [&r](const char* alias_name, const char* target, bool set) {
        r.on_write(alias_name, [&r, alias_name, target, set](uint32_t v) {
            r.value(target) = set ? (r.value(target) | v) : (r.value(target) & ~v);
            r.value(alias_name) = 0;
        });
    };
    alias("EN0_SET", "EN0", true);
    alias("EN0_CLR", "EN0", false);
    alias("OUTEN_SET", "OUTEN", true);
    alias("OUTEN_CLR", "OUTEN", false);
    alias("OUT_SET", "OUT", true);
    alias("OUT_CLR", "OUT", false);
    // Output pins read back what they drive; nothing external drives inputs.
    r.on_read("IN", [&r] { return r.value("OUT") & r.value("OUTEN"); });
}

double SocPeripherals::cnn_clock_hz() const {
    uint32_t sel = (pclkdiv_ >> kCnnSelPos) & kCnnSelMask;
    uint32_t div_code = (pclkdiv_ >> kCnnDivPos) & kCnnDivMask;
    // Divider codes 0..3 divide by 2, 4, 8, 16; code 4 passes the clock through.
    double divider = div_code >= 4 ? 1.0 : double(2u << div_code);
    // CNNCLKSEL: 0 PCLK, 1 ISO/IPO, 3 IPLL (MSDK gcr_regs.h); a device without a
    // PLL (clocks.ipll_hz 0) keeps the MAX78000 reading of every non-zero code.
    double source = sel == 0 ? cfg_.clocks.pclk_hz : cfg_.clocks.ipo_hz;
    if (sel == 3 && cfg_.clocks.ipll_hz > 0) source = cfg_.clocks.ipll_hz;
    return source / divider;
}

uint32_t SocPeripherals::register_value(const std::string& block, const std::string& reg) {
    for (auto& b : blocks_)
        if (b->regs.block() == block) return b->regs.value(reg);
    throw std::logic_error("no peripheral block " + block);
}

void SocPeripherals::map_device(uint64_t base, uint64_t size, DeviceAccess access) {
    devices_.push_back({base, size, std::move(access)});
}

SocPeripherals::Block* SocPeripherals::decode(uint64_t address, unsigned size) {
    for (auto& b : blocks_)
        if (address >= b->base && address + size <= b->base + b->size) return b.get();
    return nullptr;
}

void SocPeripherals::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
    const uint64_t addr = trans.get_address();
    const unsigned len = trans.get_data_length();
    if (len > 4 || trans.get_byte_enable_ptr() || trans.get_streaming_width() < len) {
        spdlog::warn("{}: unsupported access of {} bytes at {}", name(), len, hex32(uint32_t(addr)));
        trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
        return;
    }
    uint32_t data = 0;
    std::memcpy(&data, trans.get_data_ptr(), len);
    tlm::tlm_response_status status = tlm::TLM_ADDRESS_ERROR_RESPONSE;
    if (addr >= SimControl::kBase && addr + len <= SimControl::kBase + SimControl::kSize) {
        status = simctl_.access(trans.get_command(), uint32_t(addr - SimControl::kBase), len, data, delay);
    } else if (addr >= cfg_.soc.fast_fifo.base && addr + len <= cfg_.soc.fast_fifo.base + cfg_.soc.fast_fifo.size) {
        const bool ok = len == 4 && fast_fifo_access &&
                        fast_fifo_access(trans.is_read(), uint32_t(addr - cfg_.soc.fast_fifo.base), data);
        status = ok ? tlm::TLM_OK_RESPONSE : tlm::TLM_ADDRESS_ERROR_RESPONSE;
    } else if (const MappedDevice* d = mapped_device(devices_, addr, len)) {
        status = d->access(trans.get_command(), uint32_t(addr - d->base), len, data, delay);
    } else if (Block* b = decode(addr, len)) {
        uint32_t off = uint32_t(addr - b->base);
        bool ok = trans.is_read() ? b->regs.read(off, len, data) : b->regs.write(off, len, data);
        status = ok ? tlm::TLM_OK_RESPONSE : tlm::TLM_ADDRESS_ERROR_RESPONSE;
    }
    if (status != tlm::TLM_OK_RESPONSE) {
        spdlog::warn("{}: {} of {} byte(s) at {}: no such peripheral register", name(),
                     trans.is_read() ? "read" : "write", len, hex32(uint32_t(addr)));
    } else if (trans.is_read()) {
        std::memcpy(trans.get_data_ptr(), &data, len);
    }
    trans.set_response_status(status);
}

bool SocPeripherals::get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi&) {
    // The fast FIFO feeds the stream controller, which drains it at its own
    // time: a core running ahead must push and poll it at its own instant.
    const auto& fast_fifo = cfg_.soc.fast_fifo;
    if (fast_fifo.size) answer_sync_hint(trans, {{fast_fifo.base, fast_fifo.base + fast_fifo.size - 1}});
    return false;
}

unsigned SocPeripherals::transport_dbg(tlm::tlm_generic_payload& trans) {
    // Debug reads see register values without side effects; writes are refused.
    if (!trans.is_read() || trans.get_data_length() != 4) return 0;
    Block* b = decode(trans.get_address(), 4);
    if (!b) return 0;
    uint32_t off = uint32_t(trans.get_address() - b->base);
    uint32_t data = 0;
    if (!b->regs.read(off, 4, data)) return 0;
    std::memcpy(trans.get_data_ptr(), &data, 4);
    return 4;
}

}  // namespace ai8x
