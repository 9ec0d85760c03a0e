#include "model/accelerator.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <spdlog/spdlog.h>

#include "model/engine/dot_kernel.h"
#include "model/engine/host_profile.h"
#include "model/memories/memory_port.h"
#include "model/registers/fifo_registers.h"
#include "model/registers/quadrant_registers.h"
#include "model/sequencing.h"
#include "model/stream/stream_session.h"
#include "model/timing/inference_cycles.h"
#include "model/timing/pipeline.h"
#include "tlm/address_search.h"
#include "tlm/issue_time.h"
#include "tlm/sync_hint.h"

namespace ai8x {

Accelerator::Accelerator(sc_core::sc_module_name name, const DeviceConfig& cfg)
    : sc_module(name),
      socket("socket"),
      cnn_clock("cnn_clock", [this](double hz) { set_cnn_clock_hz(hz); }),
      irq("irq", false),
      cfg_(cfg),
      state_(cfg_, AcceleratorState::Unbound{}),
      cnn_clock_hz_(cfg.clocks.pclk_hz),
      fields_(register_fields(cfg_)) {
    socket.register_b_transport(this, &Accelerator::b_transport);
    socket.register_transport_dbg(this, &Accelerator::transport_dbg);
    socket.register_get_direct_mem_ptr(this, &Accelerator::get_direct_mem_ptr);
    check_geometry();

    for (uint32_t q = 0; q < cfg_.quadrants; ++q) {
        quadrants_.push_back(std::make_unique<Quadrant>(("q" + std::to_string(q)).c_str(), cfg_, q, state_));
        Quadrant& quad = *quadrants_.back();
        quad.on_control_write = [this, q](uint32_t old) { on_ctl_write(q, old); };
        add_region(quad.register_bank(), cfg_.quadrant_regs.size, {static_cast<int>(q), CnnBlock::Registers});
        for (const auto& port : quad.memory_ports())
            regions_.push_back({port->name(), port->base(), port->span(), nullptr, port.get(), port->scope()});
    }
    bind_state();

    fifo_ = std::make_unique<InputFifoBlock>("fifo", state_);
    add_region(fifo_->register_bank(), cfg_.fifo_regs.size);
    fast_fifo_ = std::make_unique<FastFifo>("fast_fifo", state_, *fifo_);
    stream_ = std::make_unique<StreamController>("stream", cfg_.timing, *fifo_);

    connect_power_control();
    choose_dot_kernel();
    host_profile_ = HostProfile::from_environment();
    state_.host_profile = host_profile_.get();

    std::sort(regions_.begin(), regions_.end(), [](const Region& a, const Region& b) { return a.base < b.base; });
    SC_THREAD(sequencer);
}

Accelerator::~Accelerator() = default;

void Accelerator::set_compute_threads(unsigned threads, bool only_with_spare_core) {
    state_.compute_pool = nullptr;
    compute_pool_.reset();
    if (threads > 1) {
        compute_pool_ = std::make_unique<WorkerPool>(threads, only_with_spare_core);
        state_.compute_pool = compute_pool_.get();
    }
}

void Accelerator::check_geometry() const {
    // The module tree gives every processor one kernel memory and one TRAM, and
    // each group of processors_per_data_sram processors one data memory instance.
    const auto fail = [&](const std::string& what) { throw std::invalid_argument(cfg_.source_path + ": " + what); };
    if (cfg_.kernel_mem.instances_per_quadrant != cfg_.processors_per_quadrant)
        fail("memories.kernel.instances_per_quadrant must equal accelerator.processors_per_quadrant");
    if (cfg_.tram.instances_per_quadrant != cfg_.processors_per_quadrant)
        fail("memories.tram.instances_per_quadrant must equal accelerator.processors_per_quadrant");
    if (cfg_.processors_per_data_sram == 0 ||
        cfg_.data_sram.instances_per_quadrant * cfg_.processors_per_data_sram != cfg_.processors_per_quadrant)
        fail(
            "memories.data_sram.instances_per_quadrant x accelerator.processors_per_data_sram must equal "
            "accelerator.processors_per_quadrant");
}

void Accelerator::bind_state() {
    StateBinding b;
    for (const auto& q : quadrants_) {
        b.registers.push_back(&q->registers);
        for (const auto& bias : q->bias) b.bias.push_back(bias.get());
        b.quadrant_activity.push_back(&q->activity);
        for (const auto& p : q->processors) {
            if (p->data_sram) b.data_sram.push_back(p->data_sram.get());
            b.tram.push_back(&p->tram);
            b.kernel.push_back(&p->kernel);
            b.processor_activity.push_back(&p->activity);
        }
    }
    b.names = InstanceNames::of_tree(cfg_, name());
    state_.attach(b);
}

void Accelerator::add_region(RegisterBank& bank, uint64_t size, AccessScope scope) {
    regions_.push_back({bank.name(), bank.base(), size, &bank, nullptr, scope});
}

std::vector<AddressWindow> Accelerator::windows() const {
    std::vector<AddressWindow> w;
    for (const Region& r : regions_) w.push_back({r.name, r.base, r.size, r.bank != nullptr});
    return w;
}

const RegisterBank* Accelerator::register_bank(const std::string& window_name) const {
    for (const Region& r : regions_)
        if (r.bank && r.name == window_name) return r.bank;
    return nullptr;
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
    const std::size_t i = block_at_or_below(regions_, address, last_region_);
    if (i == regions_.size()) return nullptr;
    const Region& r = regions_[i];
    return address - r.base < r.size ? &r : nullptr;
}

void Accelerator::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
    serve(decode(trans.get_address()), trans, delay);
}

void Accelerator::direct_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
    // Declared for the FIFO block's window only (get_direct_mem_ptr): the
    // firmware's per-word loop, whose accesses are otherwise decoded twice.
    const uint64_t addr = trans.get_address();
    const Region* r = fifo_region_;
    serve(r && addr - r->base < r->size ? r : decode(addr), trans, delay);
}

void Accelerator::serve(const Region* r, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
    transport_delay_ = delay;
    const uint64_t addr = trans.get_address();
    if (!r) {
        spdlog::error("{}: {} at 0x{:08x}: no accelerator block decodes this address", name(),
                      trans.is_write() ? "write" : "read", addr);
        trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    if (!power_->admit(r->scope, trans)) {
        transport_delay_ = sc_core::SC_ZERO_TIME;
        return;
    }
    if (r->bank == &fifo_->register_bank()) fifo_->set_writer_instant(issue_time_of(trans));
    if (r->bank)
        r->bank->transport(trans, addr - r->base);
    else
        r->memory->transport(trans, addr - r->base);
    transport_delay_ = sc_core::SC_ZERO_TIME;  // writes from elsewhere happen at sc_time_stamp()
}

bool Accelerator::get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi&) {
    // The stream controller drains the input FIFOs at its own time: a CPU
    // running ahead of it must push and poll them at its own instant.
    const uint64_t first = cfg_.fifo_regs.base, last = first + cfg_.fifo_regs.size - 1;
    answer_sync_hint(trans, {{first, last}});
    // Those accesses may also skip the decoding (the regions are final once
    // the simulation asks); the bus adds its own part (tlm/sync_hint.h).
    SyncHint* hint = trans.get_extension<SyncHint>();
    fifo_region_ = decode(first);
    if (hint && hint->synchronise && fifo_region_ && last - fifo_region_->base < fifo_region_->size)
        hint->direct = this;
    return false;
}

unsigned Accelerator::transport_dbg(tlm::tlm_generic_payload& trans) {
    const uint64_t addr = trans.get_address();
    const Region* r = decode(addr);
    if (!r || addr + trans.get_data_length() > r->base + r->size) return 0;
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    // The power rules answer a debugger as they answer the firmware (a debug
    // access port reaches the domain through the same bus).
    if (!power_->admit(r->scope, trans)) return trans.is_response_ok() ? trans.get_data_length() : 0;
    transport_delay_ = sc_core::SC_ZERO_TIME;
    fifo_->set_writer_instant(sc_core::sc_time_stamp());
    if (r->bank)
        r->bank->transport(trans, addr - r->base);
    else
        r->memory->transport(trans, addr - r->base);
    return trans.is_response_ok() ? trans.get_data_length() : 0;
}

void Accelerator::on_ctl_write(uint32_t q, uint32_t old_value) {
    const uint32_t v = state_.quadrant[q].ctl;
    // Only a quadrant that runs on its own starts the sequencer (model/sequencing.h).
    const bool rising = fields_.REG_CTL.CNN_EN.is_set(v) && !fields_.REG_CTL.CNN_EN.is_set(old_value);
    if (rising && runs_on_its_own(state_, int(q))) {
        if (busy_)
            spdlog::warn("{}: quadrant {} REG_CTL start (0x{:08x}) while an inference is running; ignored", name(), q,
                         v);
        else
            request_start();
    } else if (start_waits_for_clock_) {
        request_start();  // e.g. REG_CTL.CLK_EN was just set
    }
    update_irq();
}

void Accelerator::update_irq() {
    bool level = false;
    for (const QuadrantRegisters& qr : state_.quadrant) level |= fields_.REG_CTL.CNN_IRQ.is_set(qr.ctl);
    if (level != irq.read()) irq.write(level);
}

void Accelerator::sequencer() {
    for (;;) {
        sc_core::wait(start_event_);
        busy_ = true;
        inference_ = std::make_unique<Inference>();
        std::vector<uint64_t>& resets_at_start = inference_->resets_at_start;
        for (uint32_t q = 0; q < cfg_.quadrants; ++q) resets_at_start.push_back(power_->register_resets(q));
        inference_->plan = plan_sequence(state_);
        const SequencePlan& plan = inference_->plan;
        running_quadrants_ = plan.enabled_quadrants;
        const int master = plan.master;  // the start came from a quadrant that runs on its own
        // sc_time::to_string() is a string stream: only for a printed line (this is inside the inference window).
        if (spdlog::should_log(spdlog::level::debug))
            spdlog::debug("{}: start at {}, {} quadrant(s), master {}, layers {}..{}", name(),
                          sc_core::sc_time_stamp().to_string(), running_quadrants_.size(), master, plan.first_layer,
                          plan.last_layer);

        state_.clear_layer_activity();
        if (host_profile_) host_profile_->start_inference();
        if (observer_) observer_->inference_started(sc_core::sc_time_stamp(), cnn_clock_hz_);
        // Per-state costs of this inference: the pipeline's output cost depends
        // on REG_CTL and on the clock at the start (model/timing/pipeline.h).
        inference_clock_hz_ = cnn_clock_hz_;
        inference_pipelined_ = pipeline_enabled(state_, master);
        const AccelTiming timing = inference_timing(cfg_.timing, state_, master, cnn_clock_hz_);
        // Only a FIFO-fed inference has a stream session (its plan's FIFO mode is
        // this plan's: the master's REG_CTL.FIFO_EN); a plain one never used it.
        if (plan.fifo_mode) {
            inference_->session = std::make_unique<StreamSession>(state_, timing);
            StreamController::Outcome out = stream_->run(*inference_->session, cnn_clock_hz_, capture_layers_);
            last_result_ = std::move(out.result);
            last_timing_ = std::move(out.timing);
            busy_cycles_ = out.busy_cycles;
        } else {
            run_layer_engine(timing, inference_->plan);
        }
        if (observer_) {
            report_layers(running_quadrants_);
            observer_->inference_finished(busy_cycles_);
        }

        record_quadrant_activity(running_quadrants_);
        busy_ = false;
        if (master < 0 || !fields_.REG_CTL.CNN_EN.is_set(state_.quadrant[master].ctl)) {
            spdlog::info("{}: quadrant {} was disabled while running; no completion interrupt", name(), master);
            continue;
        }
        uint32_t running_mask = 0;
        for (int q : running_quadrants_) running_mask |= 1u << q;
        const std::string clock_gone = power_->missing_clock(running_mask);
        if (!clock_gone.empty())
            spdlog::warn("{}: a clock stopped during the inference ({}); completion is modelled anyway", name(),
                         clock_gone);
        for (int q : running_quadrants_) {
            if (power_->register_resets(q) != resets_at_start[q]) continue;
            uint32_t& ctl = state_.quadrant[q].ctl;
            ctl = fields_.REG_CTL.CNN_IRQ.with(ctl, 1);
        }
        // One-shot: the master's enable clears with each layer, so the next
        // `REG_CTL |= 1` starts the next layer (model/sequencing.h).
        if (plan.oneshot) {
            uint32_t& ctl = state_.quadrant[master].ctl;
            ctl = fields_.REG_CTL.CNN_EN.with(ctl, 0);
        }
        spdlog::debug("{}: done after {} CNN cycles", name(), busy_cycles_);
        update_irq();
    }
}

// A plain (not FIFO-fed) inference: the engine computes every layer at the
// start, then the sequencer waits for the time the timing model gives them.
void Accelerator::run_layer_engine(const AccelTiming& timing, SequencePlan& plan) {
    try {
        LayerEngine engine(state_);
        engine.set_capture(capture_layers_);
        last_result_ = engine.run();  // logs its own programming warnings
    } catch (const std::exception& e) {
        // A model bug must not take the whole simulation down; the firmware still gets its interrupt.
        spdlog::error("{}: layer engine failed: {}", name(), e.what());
        last_result_ = EngineResult{};
    }
    // Snoop units and one-shot mode choose the layers at run time: time the ones that ran.
    plan.order.clear();
    for (const LayerStats& l : last_result_.layers) plan.order.push_back(l.layer);
    // Time comes from the timing model walking the same registers the engine
    // decoded; function (above) and time (here) stay independent.
    last_timing_ = inference_cycles(TimingModel(timing), state_, plan);
    busy_cycles_ = std::max<uint64_t>(1, last_timing_.total());
    sc_core::wait(sc_core::sc_time(double(busy_cycles_) / cnn_clock_hz_, sc_core::SC_SEC));
}

// A running quadrant is busy in a layer when one of its processors takes part
// in it (LREG_ENA processor enables). Bit q of the result: quadrant q.
uint32_t Accelerator::quadrants_in_layer(int layer, const std::vector<int>& running_quadrants) const {
    uint32_t mask = 0;
    if (layer < 0 || uint32_t(layer) >= cfg_.max_layers) return mask;
    for (int q : running_quadrants)
        if (fields_.LREG_ENA.PRO_EN.get(state_.quadrant[q].lreg[LREG_ENA][layer]) != 0) mask |= 1u << q;
    return mask;
}

void Accelerator::record_quadrant_activity(const std::vector<int>& running_quadrants) {
    for (const TimedLayer& t : last_timing_.layers) {
        const uint32_t mask = quadrants_in_layer(t.layer, running_quadrants);
        if (mask) state_.note_layer_activity(t.layer);
        for (int q : running_quadrants)
            if (mask >> q & 1) state_.quadrant_activity[q].busy_cycles[t.layer] += t.cycles.total();
    }
}

// Places the layers of the last inference on its cycle axis, as the timing
// model adds them up (InferenceCycles::total): the start-up cycles, then the
// streaming chain (its layers interleaved, with the FIFO stalls), then every
// other layer one after the other.
void Accelerator::report_layers(const std::vector<int>& running_quadrants) const {
    const InferenceCycles& t = last_timing_;
    const auto span_of = [&t](int layer) -> const StreamSpan* {
        for (const StreamSpan& s : t.stream_spans)
            if (s.layer == layer) return &s;
        return nullptr;
    };
    const auto cycles_of = [](const TimedLayer& l) { return uint64_t(std::max<int64_t>(0, l.cycles.total())); };
    uint64_t next = t.startup + t.stall_cycles;
    for (const TimedLayer& l : t.layers)
        if (span_of(l.layer)) next += cycles_of(l);
    for (const TimedLayer& l : t.layers) {
        const uint32_t mask = quadrants_in_layer(l.layer, running_quadrants);
        if (const StreamSpan* s = span_of(l.layer)) {
            observer_->layer_ran(l.layer, t.startup + s->first, t.startup + s->last, mask, l.passes, true);
        } else {
            observer_->layer_ran(l.layer, next, next + cycles_of(l), mask, l.passes, false);
            next += cycles_of(l);
        }
    }
}

void Accelerator::set_observer(ActivityObserver* observer) {
    observer_ = observer;
    stream_->set_observer(observer);
    fifo_->set_observer(observer);
}

}  // namespace ai8x

namespace ai8x {

void Accelerator::connect_power_control() {
    std::vector<PowerDomain*> domains;
    for (const auto& quad : quadrants_) {
        domains.push_back(&quad->power());
        quad->power().inference_running = [this] { return busy_; };
    }
    aon_ = std::make_unique<AlwaysOnControl>("aon", state_, domains);
    add_region(aon_->register_bank(), cfg_.aon_regs.size);
    power_ = std::make_unique<PowerControl>("power", state_, std::move(domains));
    power_->on_registers_reset = [this](uint32_t) {
        update_irq();  // a pending CNN_IRQ is gone with the register
        bool whole_cnn = true;
        for (uint32_t q = 0; q < cfg_.quadrants; ++q) whole_cnn &= power_->in_reset(q) || !power_->powered(q);
        if (!whole_cnn) return;
        // Every quadrant in reset or unpowered: the input FIFOs are reset with them.
        for (uint32_t f = 0; f < cfg_.fifo_count; ++f) fifo_->clear(f);
        state_.fifo_ctl = 0;
        fifo_->update_status();
    };
    power_->on_clock_change = [this] {
        if (start_waits_for_clock_) request_start();
    };
}

void Accelerator::request_start() {
    const SequencePlan plan = plan_sequence(state_);
    uint32_t running = 0;
    for (int q : plan.enabled_quadrants) running |= 1u << q;
    if (plan.master < 0 || !runs_on_its_own(state_, plan.master) || busy_) {
        start_waits_for_clock_ = false;  // stopped (or reset) before its clock came
        return;
    }
    const std::string missing = power_->missing_clock(running);
    if (!missing.empty()) {
        // No clock, no progress: the start is remembered and the sequencer runs
        // once the clock does.
        if (!start_waits_for_clock_)
            spdlog::warn("{}: inference started while {}; nothing runs until the clock does", name(), missing);
        start_waits_for_clock_ = true;
        return;
    }
    start_waits_for_clock_ = false;
    // The initiator may run ahead of SystemC time (temporal decoupling): the
    // CNN starts at the write's own instant, where the firmware's stopwatch starts.
    start_event_.notify(transport_delay_);
}

}  // namespace ai8x
