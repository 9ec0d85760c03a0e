#include "model/accelerator.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <spdlog/spdlog.h>

#include "model/memories/kernel_memory_port.h"
#include "model/memories/memory_port.h"
#include "model/registers/fifo_registers.h"
#include "model/registers/quadrant_registers.h"
#include "model/stream/stream_session.h"
#include "model/timing/inference_cycles.h"

namespace ai8x {

Accelerator::Accelerator(sc_core::sc_module_name name, const DeviceConfig& cfg)
    : sc_module(name),
      socket("socket"),
      cfg_(cfg),
      state_(cfg_),
      fifos_(cfg_.fifo_count, cfg_.fifo_depth),
      cnn_clock_hz_(cfg.clocks.pclk_hz) {
    socket.register_b_transport(this, &Accelerator::b_transport);

    for (uint32_t q = 0; q < cfg_.quadrants; ++q) build_quadrant(q);

    banks_.push_back(std::make_unique<RegisterBank>("fifo", cfg_.fifo_regs.base));
    add_fifo_registers(*banks_.back(), state_, fifo_last_written_);
    fifo_overflow_warned_.assign(cfg_.fifo_count, false);
    for (uint32_t i = 0; i < cfg_.fifo_count; ++i)
        banks_.back()->find(FIFO_DATA_OFFSET + 4ull * i)->on_write = [this, i](Register& r, uint32_t) {
            on_fifo_write(i, r.value());
        };
    // Clearing an enable bit empties that FIFO (docs/fifo.md §3).
    banks_.back()->find(FIFO_CTL_OFFSET)->on_write = [this](Register& r, uint32_t old) {
        constexpr unsigned kEnableShift = 12;
        for (uint32_t i = 0; i < cfg_.fifo_count; ++i)
            if ((old >> (kEnableShift + i) & 1) && !(r.value() >> (kEnableShift + i) & 1)) fifos_.clear(i);
        update_fifo_status();
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
                                                         cfg_.data_sram, &AcceleratorState::data_sram,
                                                         &AcceleratorState::data_written));
    add_memory(std::make_unique<SlotArrayPort<uint16_t>>(state_, q, base_of(cfg_.tram), "tram", cfg_.tram,
                                                         &AcceleratorState::tram));
    add_memory(std::make_unique<SlotArrayPort<uint8_t>>(state_, q, base_of(cfg_.bias_mem), "bias", cfg_.bias_mem,
                                                        &AcceleratorState::bias,
                                                        &AcceleratorState::bias_written));
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

std::vector<uint64_t> Accelerator::unapplied_register_overrides() const {
    std::vector<uint64_t> addresses;
    for (const Region& r : regions_)
        if (r.bank)
            for (uint64_t offset : r.bank->unapplied_overrides()) addresses.push_back(r.base + offset);
    return addresses;
}

const Accelerator::Region* Accelerator::decode(uint64_t address) const {
    auto it = std::upper_bound(regions_.begin(), regions_.end(), address,
                               [](uint64_t a, const Region& r) { return a < r.base; });
    if (it == regions_.begin()) return nullptr;
    --it;
    return address - it->base < it->size ? &*it : nullptr;
}

void Accelerator::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
    transport_delay_ = delay;
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
    transport_delay_ = sc_core::SC_ZERO_TIME;  // writes from elsewhere happen at sc_time_stamp()
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
            // The initiator may run ahead of SystemC time (temporal decoupling): the
            // CNN starts at the write's own instant, where the firmware's stopwatch starts.
            start_event_.notify(transport_delay_);
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
        spdlog::debug("{}: start at {}, quadrants 0x{:x}, last layer {}", name(), sc_core::sc_time_stamp().to_string(),
                      running_quadrants_, state_.quadrant[master].lcnt_max & 0x1f);

        StreamSession session(state_, cfg_.timing);
        if (session.fifo_mode()) {
            run_fifo_inference(session);
        } else {
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
        }

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

void Accelerator::update_fifo_status() {
    // FIFO_STAT is read-only storage kept equal to the live full flags.
    state_.fifo_stat = fifos_.full_flags();
}

void Accelerator::on_fifo_write(uint32_t fifo, uint32_t word) {
    constexpr unsigned kEnableShift = 12;
    const bool enabled = state_.fifo_ctl >> (kEnableShift + fifo) & 1;
    const uint64_t address = cfg_.fifo_regs.base + FIFO_DATA_OFFSET + 4ull * fifo;
    switch (fifos_.push(fifo, word, enabled)) {
        case InputFifos::Push::Queued:
            fifo_push_event_.notify(sc_core::SC_ZERO_TIME);
            break;
        case InputFifos::Push::DroppedDisabled:
            spdlog::warn("{}: FIFO {} write at 0x{:08x}: word 0x{:08x} dropped, FIFO_CTL enable bit {} is clear",
                         name(), fifo, address, word, kEnableShift + fifo);
            break;
        case InputFifos::Push::DroppedFull:
            if (!fifo_overflow_warned_[fifo])
                spdlog::warn("{}: FIFO {} overflow at 0x{:08x}: word 0x{:08x} dropped, FIFO holds {} of {} words; "
                             "the firmware must wait for FIFO_STAT bit {} to clear",
                             name(), fifo, address, word, fifos_.occupancy(fifo), fifos_.depth(), fifo);
            fifo_overflow_warned_[fifo] = true;
            break;
    }
    update_fifo_status();
}

void Accelerator::run_fifo_inference(StreamSession& session) {
    // One clock for the whole inference: cycle n of the accelerator is SystemC time
    // start + n / f_CNN. Every wait below goes to such an edge, so the completion
    // interrupt comes exactly cnn_cycles after the start, as the silicon's busy
    // interval (what the firmware's stopwatch measures) does.
    const sc_core::sc_time start = sc_core::sc_time_stamp();
    const double hz = cnn_clock_hz_;
    uint64_t elapsed = 0;  // CNN cycles since `start` that SystemC time has reached
    const auto advance_to = [&](uint64_t cycle) {
        const sc_core::sc_time edge = start + sc_core::sc_time(double(cycle) / hz, sc_core::SC_SEC);
        if (edge > sc_core::sc_time_stamp()) sc_core::wait(edge - sc_core::sc_time_stamp());
        elapsed = std::max(elapsed, cycle);
    };
    // A FIFO word written between two CNN clock edges is seen at the next edge.
    const auto next_edge_now = [&]() -> uint64_t {
        const double cycles = (sc_core::sc_time_stamp() - start).to_seconds() * hz;
        constexpr double kRounding = 1e-3;  // sc_time's picosecond rounding of earlier edges
        return uint64_t(std::ceil(cycles - kRounding));
    };
    // Time advances in chunks so that SystemC time (and the CPU polling FIFO_STAT)
    // follows the accelerator without a context switch per scan position.
    constexpr uint64_t kChunkCycles = 1000;
    std::fill(fifo_overflow_warned_.begin(), fifo_overflow_warned_.end(), false);
    const uint32_t enabled = session.enabled_fifos();
    const auto queued = [&]() -> uint64_t {  // frame positions every enabled FIFO can deliver now
        uint64_t words = ~uint64_t{0};
        for (uint32_t i = 0; i < cfg_.fifo_count; ++i)
            if (enabled >> i & 1) words = std::min<uint64_t>(words, fifos_.occupancy(i));
        return words == ~uint64_t{0} ? 0 : words;
    };
    // The start-up cycles come before the first layer, so the chain's timeline
    // (scan positions and stalls) begins after them.
    const uint64_t startup = TimingModel(cfg_.timing).startup_cycles();
    uint64_t popped = 0;
    const uint64_t dropped_before = fifos_.dropped_total();
    bool starving_warned = false;
    advance_to(startup);
    for (;;) {
        const StreamStep st = session.step(popped + queued());
        if (popped < session.consumed()) {
            for (; popped < session.consumed(); ++popped)
                for (uint32_t i = 0; i < cfg_.fifo_count; ++i)
                    if (enabled >> i & 1) session.deliver(i, fifos_.pop(i));
            update_fifo_status();
        }
        if (st.kind == StreamStep::Done) break;
        const uint64_t chain_end = startup + session.scheduler().cycle();
        if (st.kind == StreamStep::Ran) {
            if (chain_end >= elapsed + kChunkCycles) advance_to(chain_end);
            continue;
        }
        if (chain_end > elapsed) {
            // Catch up with time first: the CPU may push the missing words meanwhile,
            // and an event notified while nobody waits is not remembered.
            advance_to(chain_end);
            continue;
        }
        if (!starving_warned && fifos_.dropped_total() > dropped_before) {
            // Lost words never arrive: the frame cannot complete (docs/fifo.md §8).
            spdlog::warn("{}: waiting for FIFO word {} of {} (REG_IFRM) after {} words were dropped; "
                         "the inference cannot complete", name(), st.need_word, session.frame_words(),
                         fifos_.dropped_total() - dropped_before);
            starving_warned = true;
        }
        spdlog::trace("{}: waiting for FIFO word {} of {}", name(), st.need_word, session.frame_words());
        sc_core::wait(fifo_push_event_);  // no timeout: the run's time limit ends a starved frame
        // The stall lasts until the clock edge that sees the word; those cycles elapse like any other.
        const uint64_t edge = std::max(next_edge_now(), elapsed);
        session.add_stall(edge - elapsed);
        advance_to(edge);
    }
    try {
        last_result_ = session.finish(capture_layers_);
    } catch (const std::exception& e) {
        // A model bug must not take the whole simulation down; the firmware still gets its interrupt.
        spdlog::error("{}: layer engine failed: {}", name(), e.what());
        last_result_ = EngineResult{};
    }
    last_timing_ = session.timing();
    busy_cycles_ = std::max<uint64_t>(1, session.total_cycles());
    spdlog::debug("{}: FIFO inference: {} words per FIFO, {} stall cycles, {} CNN cycles in all, chain ends at "
                  "cycle {}", name(), popped, session.scheduler().stall_cycles(), busy_cycles_, elapsed);
    if (elapsed > busy_cycles_)  // the per-position costs must add up to the layers' cycles (scan_cost.h)
        spdlog::error("{}: FIFO inference: {} cycles have elapsed but the inference counts only {}", name(),
                      elapsed, busy_cycles_);
    advance_to(busy_cycles_);
}

}  // namespace ai8x
