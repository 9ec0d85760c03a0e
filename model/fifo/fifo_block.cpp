#include "model/fifo/fifo_block.h"

#include <spdlog/spdlog.h>

#include "model/registers/fifo_registers.h"
#include "model/registers/register_fields.h"

namespace ai8x {

InputFifoBlock::InputFifoBlock(sc_core::sc_module_name name, AcceleratorState& state)
    : sc_module(name),
      state_(state),
      fifos_(state.cfg.fifo_count, state.cfg.fifo_depth),
      enable_(register_fields(state.cfg).FIFO_CTL.FIFO_ENA),
      cpl_(register_fields(state.cfg).FIFO_CTL.FIFO_CPL),
      full_(register_fields(state.cfg).FIFO_STAT.FULL),
      disabled_writes_(this->name()) {
    const DeviceConfig& cfg = state.cfg;
    bank_ = std::make_unique<RegisterBank>(std::string(this->name()) + ".regs", cfg.fifo_regs.base);
    add_fifo_registers(*bank_, state_, last_written_);
    overflow_warned_.assign(cfg.fifo_count, false);
    for (uint32_t i = 0; i < cfg.fifo_count; ++i)
        bank_->find(fifo_data_offset(cfg, i))->on_write = [this, i](Register& r, uint32_t) {
            on_data_write(i, r.value());
        };
    bank_->find("FIFO_CTL")->on_write = [this](Register&, uint32_t old) { on_ctl_write(old); };
    status_offset_ = bank_->find("FIFO_STAT")->def().offset;
    data_begin_ = fifo_data_offset(cfg, 0);
    data_end_ = fifo_data_offset(cfg, cfg.fifo_count - 1) + 4;
}

InputFifoBlock::~InputFifoBlock() = default;

bool InputFifoBlock::enabled(uint32_t fifo) const { return enable_.bit(state_.fifo_ctl, fifo); }

void InputFifoBlock::begin_inference() { std::fill(overflow_warned_.begin(), overflow_warned_.end(), false); }

void InputFifoBlock::update_status() {
    // FIFO_STAT is read-only storage kept equal to the live full flags.
    state_.fifo_stat = full_.with(0, fifos_.full_flags());
}

void InputFifoBlock::clear(uint32_t fifo) {
    if (observer_ && fifos_.occupancy(fifo) > 0) observer_->fifo_cleared(sc_core::sc_time_stamp(), fifo);
    fifos_.clear(fifo);
}

void InputFifoBlock::on_ctl_write(uint32_t old_value) {
    // Clearing an enable bit empties that FIFO (docs/fifo.md §3).
    for (uint32_t i = 0; i < fifos_.count(); ++i)
        if (enable_.bit(old_value, i) && !enabled(i)) clear(i);
    // FIFO_CPL's function is undocumented; the generator always sets it with the
    // enables on this device, so a value without it is not generated firmware's.
    const auto lacks_cpl = [&](uint32_t v) { return enable_.get(v) != 0 && !cpl_.is_set(v); };
    if (lacks_cpl(state_.fifo_ctl) && !lacks_cpl(old_value))
        spdlog::warn(
            "{}: FIFO_CTL = 0x{:08x} enables FIFOs but leaves FIFO_CPL (bit {}) clear; generated "
            "firmware always sets it (stored, no other effect modelled)",
            name(), state_.fifo_ctl, cpl_.lsb);
    update_status();
}

void InputFifoBlock::wait_for_push() {
    consumer_waiting_ = true;
    sc_core::wait(push_event_);
    consumer_waiting_ = false;
}

void InputFifoBlock::notify_push() {
    // A delta notification wakes the processes waiting for it at the end of
    // this evaluation phase, those that start waiting later in the phase
    // included. With no waiter and no other process runnable now, nobody can
    // be woken: the notification would only make the CPU synchronise once more
    // for nothing (it counts as pending activity), so it is left out.
    if (consumer_waiting_ || sc_core::sc_pending_activity_at_current_time()) push_event_.notify(sc_core::SC_ZERO_TIME);
}

bool InputFifoBlock::settled_access(uint64_t offset, bool write) const {
    if (observer_ || !single_writer_ || fifos_.full_flags() != 0) return false;
    return write ? offset >= data_begin_ && offset < data_end_ : offset == status_offset_;
}

bool InputFifoBlock::time_neutral(uint64_t offset, bool write) const {
    if (observer_) return false;
    return write ? !consumer_waiting_ && offset >= data_begin_ && offset < data_end_ : offset == status_offset_;
}

InputFifos::Push InputFifoBlock::push_word(uint32_t fifo, uint32_t word, bool enabled) {
    const InputFifos::Push r = fifos_.push(fifo, word, enabled, sc_core::sc_time_stamp().value());
    if (r == InputFifos::Push::Queued) notify_push();
    update_status();
    return r;
}

void InputFifoBlock::on_data_write(uint32_t fifo, uint32_t word) {
    // Only the warnings need the address: no description lookup on the per-word path.
    const auto address = [&] { return state_.cfg.fifo_regs.base + fifo_data_offset(state_.cfg, fifo); };
    switch (fifos_.push(fifo, word, enabled(fifo), writer_instant_.value())) {
        case InputFifos::Push::Queued:
            notify_push();
            if (observer_) observer_->fifo_pushed(sc_core::sc_time_stamp(), fifo);
            break;
        case InputFifos::Push::DroppedDisabled:
            // A loader left running on a disabled FIFO drops every word: one line, the rest counted.
            disabled_writes_.warn(
                fmt::format("FIFO {} written while FIFO_CTL enable bit {} is clear", fifo, enable_.lsb + fifo),
                fmt::format("{}: FIFO {} write at 0x{:08x}: word 0x{:08x} dropped, FIFO_CTL enable "
                            "bit {} is clear",
                            name(), fifo, address(), word, enable_.lsb + fifo));
            break;
        case InputFifos::Push::DroppedFull:
            if (!overflow_warned_[fifo])
                spdlog::warn(
                    "{}: FIFO {} overflow at 0x{:08x}: word 0x{:08x} dropped, FIFO holds {} of {} words; "
                    "the firmware must wait for FIFO_STAT bit {} to clear",
                    name(), fifo, address(), word, fifos_.occupancy(fifo), fifos_.depth(), fifo);
            overflow_warned_[fifo] = true;
            break;
    }
    update_status();
}

}  // namespace ai8x
