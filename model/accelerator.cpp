#include "model/accelerator.h"

#include <algorithm>
#include <stdexcept>

#include <spdlog/spdlog.h>

#include "model/memories/kernel_memory_port.h"
#include "model/memories/memory_port.h"
#include "model/registers/fifo_registers.h"
#include "model/registers/quadrant_registers.h"
#include "model/timing/inference_cycles.h"

namespace ai8x {

Accelerator::Accelerator(sc_core::sc_module_name name, const DeviceConfig& cfg)
    : sc_module(name), socket("socket"), cfg_(cfg), state_(cfg_), cnn_clock_hz_(cfg.clocks.pclk_hz) {
    socket.register_b_transport(this, &Accelerator::b_transport);

    for (uint32_t q = 0; q < cfg_.quadrants; ++q) build_quadrant(q);

    banks_.push_back(std::make_unique<RegisterBank>("fifo", cfg_.fifo_regs.base));
    add_fifo_registers(*banks_.back(), state_, fifo_last_written_);
    fifo_words_.assign(cfg_.fifo_count, {});
    for (uint32_t i = 0; i < cfg_.fifo_count; ++i)
        banks_.back()->find(FIFO_DATA_OFFSET + 4ull * i)->on_write = [this, i](Register& r, uint32_t) {
            fifo_words_[i].push_back(r.value());
        };
    regions_.push_back({"fifo", cfg_.fifo_regs.base, cfg_.fifo_regs.size, banks_.back().get(), nullptr});

    banks_.push_back(std::make_unique<RegisterBank>("aon", cfg_.aon_regs.base));
    add_aon_registers(*banks_.back(), state_);
    regions_.push_back({"aon", cfg_.aon_regs.base, cfg_.aon_regs.size, banks_.back().get(), nullptr});

    std::sort(regions_.begin(), regions_.end(), [](const Region& a, const Region& b) { return a.base < b.base; });
    SC_THREAD(sequencer);
}

Accelerator::~Accelerator() = default;

void Accelerator::build_quadrant(uint32_t q) {
    const std::string p = "q" + std::to_string(q);
    const uint64_t reg_base = cfg_.quadrant_regs.base + q * cfg_.quadrant_regs.quadrant_stride;
    banks_.push_back(std::make_unique<RegisterBank>(p + ".regs", reg_base));
    RegisterBank& bank = *banks_.back();
    add_quadrant_registers(bank, state_.quadrant[q], cfg_);
    bank.find(REG_CTL_OFFSET)->on_write = [this, q](Register&, uint32_t old) { on_ctl_write(q, old); };
    regions_.push_back({p + ".regs", reg_base, cfg_.quadrant_regs.size, &bank, nullptr});

    const auto add_memory = [&](std::unique_ptr<MemoryPort> m) {
        regions_.push_back({m->name(), m->base(), m->span(), nullptr, m.get()});
        memories_.push_back(std::move(m));
    };
    const auto base_of = [q](const ArrayGeometry& g) { return g.base + q * g.quadrant_stride; };
    add_memory(std::make_unique<SlotArrayPort<uint32_t>>(state_, q, base_of(cfg_.data_sram), "data_sram",
                                                         cfg_.data_sram, &AcceleratorState::data_sram));
    add_memory(std::make_unique<SlotArrayPort<uint16_t>>(state_, q, base_of(cfg_.tram), "tram", cfg_.tram,
                                                         &AcceleratorState::tram));
    add_memory(std::make_unique<SlotArrayPort<uint8_t>>(state_, q, base_of(cfg_.bias_mem), "bias", cfg_.bias_mem,
                                                        &AcceleratorState::bias));
    add_memory(std::make_unique<KernelMemoryPort>(state_, q, base_of(cfg_.kernel_mem), state_.quadrant[q].ctl));
}

std::vector<AddressWindow> Accelerator::windows() const {
    std::vector<AddressWindow> w;
    for (const Region& r : regions_) w.push_back({r.name, r.base, r.size, r.bank != nullptr});
    return w;
}

void Accelerator::set_cnn_clock_hz(double hz) {
    if (!(hz > 0)) {
        spdlog::error("{}: ignoring CNN clock of {} Hz", name(), hz);
        return;
    }
    cnn_clock_hz_ = hz;
}

void Accelerator::add_register_override(uint64_t address, uint32_t value) {
    const Region* r = decode(address);
    if (!r || !r->bank || !r->bank->set_override(address - r->base, value))
        throw std::invalid_argument(fmt::format("register override: no accelerator register at 0x{:08x}", address));
    spdlog::info("{}: writes to 0x{:08x} will store 0x{:08x}", name(), address, value);
}

const Accelerator::Region* Accelerator::decode(uint64_t address) const {
    auto it = std::upper_bound(regions_.begin(), regions_.end(), address,
                               [](uint64_t a, const Region& r) { return a < r.base; });
    if (it == regions_.begin()) return nullptr;
    --it;
    return address - it->base < it->size ? &*it : nullptr;
}

void Accelerator::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time&) {
    const uint64_t addr = trans.get_address();
    const Region* r = decode(addr);
    if (!r) {
        spdlog::error("{}: {} at 0x{:08x}: no accelerator block decodes this address", name(),
                      trans.is_write() ? "write" : "read", addr);
        trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    if (r->bank) r->bank->transport(trans, addr - r->base);
    else r->memory->transport(trans, addr - r->base);
}

void Accelerator::on_ctl_write(uint32_t q, uint32_t old_value) {
    const uint32_t v = state_.quadrant[q].ctl;
    const bool master = ((v & ctl::kMasterMask) >> ctl::kMasterShift) == q;
    const bool rising = (v & ctl::kCnnEnable) && !(old_value & ctl::kCnnEnable);
    if (master && rising) {
        if (busy_)
            spdlog::warn("{}: quadrant {} REG_CTL start (0x{:08x}) while an inference is running; ignored", name(), q,
                         v);
        else
            start_event_.notify(sc_core::SC_ZERO_TIME);
    }
    update_irq();
}

void Accelerator::update_irq() {
    bool level = false;
    for (const QuadrantRegisters& qr : state_.quadrant) level |= (qr.ctl & ctl::kCnnIrq) != 0;
    if (level == irq_level_) return;
    irq_level_ = level;
    if (on_irq) on_irq(level);
}

void Accelerator::sequencer() {
    for (;;) {
        sc_core::wait(start_event_);
        busy_ = true;
        running_quadrants_ = 0;
        uint32_t master = 0;
        for (uint32_t q = 0; q < cfg_.quadrants; ++q) {
            const uint32_t c = state_.quadrant[q].ctl;
            if (c & ctl::kCnnEnable) running_quadrants_ |= 1u << q;
            if (((c & ctl::kMasterMask) >> ctl::kMasterShift) == q && (c & ctl::kCnnEnable)) master = q;
        }
        spdlog::debug("{}: start, quadrants 0x{:x}, last layer {}", name(), running_quadrants_,
                      state_.quadrant[master].lcnt_max & 0x1f);

        try {
            LayerEngine engine(state_);
            engine.set_capture(capture_layers_);
            last_result_ = engine.run();  // logs its own programming warnings
        } catch (const std::exception& e) {
            // A model bug must not take the whole simulation down; the firmware still gets its interrupt.
            spdlog::error("{}: layer engine failed: {}", name(), e.what());
            last_result_ = EngineResult{};
        }
        // Time comes from the timing model walking the same registers the engine
        // decoded; function (above) and time (here) stay independent.
        std::vector<int> quads;
        for (uint32_t q = 0; q < cfg_.quadrants; ++q)
            if (running_quadrants_ & (1u << q)) quads.push_back(int(q));
        last_timing_ = inference_cycles(TimingModel(cfg_.timing), state_, quads, int(master));
        busy_cycles_ = std::max<uint64_t>(1, last_timing_.total());
        sc_core::wait(sc_core::sc_time(double(busy_cycles_) / cnn_clock_hz_, sc_core::SC_SEC));

        busy_ = false;
        if (!(state_.quadrant[master].ctl & ctl::kCnnEnable)) {
            spdlog::info("{}: quadrant {} was disabled while running; no completion interrupt", name(), master);
            continue;
        }
        for (uint32_t q = 0; q < cfg_.quadrants; ++q)
            if (running_quadrants_ & (1u << q)) state_.quadrant[q].ctl |= ctl::kCnnIrq;
        spdlog::debug("{}: done after {} CNN cycles", name(), busy_cycles_);
        update_irq();
    }
}

}  // namespace ai8x
