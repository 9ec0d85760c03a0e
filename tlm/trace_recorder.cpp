#include "tlm/trace_recorder.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "tlm/trace_command.h"

namespace ai8x {

TraceRecorder::TraceRecorder(std::ostream& out, std::string initiator) : out_(out), initiator_(std::move(initiator)) {
    out_ << "# ai8xsim trace recorded from bus initiator '" << initiator_ << "'\n";
}

TraceRecorder::~TraceRecorder() { flush(); }

void TraceRecorder::add_window(uint64_t base, uint64_t size, std::string name) {
    windows_.push_back({base, size, std::move(name)});
    named_ = nullptr;  // pointers into windows_ may have moved
}

void TraceRecorder::add_initiator(std::string initiator) {
    emit("# also recorded: bus initiator '" + initiator + "'");
    more_initiators_.push_back(std::move(initiator));
}

void TraceRecorder::add_flow_control(uint64_t address, uint32_t mask) { flow_control_.emplace_back(address, mask); }

void TraceRecorder::set_timeout_policy(unsigned factor, const sc_core::sc_time& floor) {
    timeout_factor_ = factor;
    timeout_floor_ = floor;
}

const TraceRecorder::Window* TraceRecorder::window_of(uint64_t address) const {
    for (const Window& w : windows_)
        if (address >= w.base && address - w.base < w.size) return &w;
    return nullptr;
}

void TraceRecorder::name_window(const Window* w) {
    if (!w || w == named_ || w->name.empty()) return;
    emit("# " + w->name);
    named_ = w;
}

uint64_t TraceRecorder::timeout_ps(const sc_core::sc_time& elapsed) const {
    const sc_core::sc_time t = elapsed * static_cast<double>(timeout_factor_) + timeout_floor_;
    // Whole picoseconds first (sc_time is exact there), then round up to a whole
    // microsecond in integers so the trace stays readable and reproducible.
    constexpr uint64_t kPsPerUs = 1'000'000;
    const auto ps = static_cast<uint64_t>(std::llround(t.to_seconds() * 1e12));
    return (ps + kPsPerUs - 1) / kPsPerUs * kPsPerUs;
}

void TraceRecorder::emit(const std::string& line) { out_ << line << '\n'; }

void TraceRecorder::on_transaction(const BusEvent& ev) {
    if (ev.initiator != initiator_ &&
        std::find(more_initiators_.begin(), more_initiators_.end(), ev.initiator) == more_initiators_.end())
        return;
    const Window* window = window_of(ev.address);
    if (!window && !windows_.empty()) return;
    if (!more_initiators_.empty() && ev.initiator != last_initiator_) {
        flush();
        emit("# initiator " + ev.initiator);
        last_initiator_ = ev.initiator;
        named_ = nullptr;  // name the window again under the new initiator
    }
    const bool is_read = ev.command == tlm::TLM_READ_COMMAND;
    if (is_read && run_ && run_->address == ev.address && run_->size == ev.length &&
        ev.status == tlm::TLM_OK_RESPONSE) {
        ++run_->count;
        run_->last_value = ev.data;
        run_->last_time = ev.time;
        last_event_time_ = ev.time;
        return;
    }
    flush();
    name_window(window);
    last_event_time_ = ev.time;
    if (ev.status != tlm::TLM_OK_RESPONSE) {
        // The firmware saw an error here; replaying it could only repeat the error.
        char buf[96];
        std::snprintf(buf, sizeof buf, "# %s%u 0x%08llx answered with an error response, not replayed",
                      is_read ? "read" : "write", ev.length * 8, static_cast<unsigned long long>(ev.address));
        emit(buf);
        return;
    }
    if (is_read) {
        run_ = ReadRun{ev.address, ev.length, ev.data, 1, ev.time, ev.time};
        return;
    }
    TraceCommand cmd;
    cmd.op = TraceOp::Write;
    cmd.address = ev.address;
    cmd.size = ev.length;
    cmd.value = ev.data;
    emit(format_trace_command(cmd));
}

void TraceRecorder::on_irq(bool level, const sc_core::sc_time& now) {
    const bool rising = level && !irq_level_;
    irq_level_ = level;
    if (!rising) return;
    flush();
    TraceCommand cmd;
    cmd.op = TraceOp::WaitIrq;
    const sc_core::sc_time elapsed = now > last_event_time_ ? now - last_event_time_ : sc_core::SC_ZERO_TIME;
    cmd.timeout_ps = timeout_ps(elapsed);
    emit(format_trace_command(cmd));
    last_event_time_ = now;
}

void TraceRecorder::flush() {
    if (!run_) return;
    TraceCommand cmd;
    cmd.op = run_->count > 1 ? TraceOp::Poll : TraceOp::Read;
    cmd.address = run_->address;
    cmd.size = run_->size;
    cmd.value = run_->last_value;
    cmd.mask = run_->size == 4 ? 0xffffffffu : (1u << (run_->size * 8)) - 1;
    for (const auto& [address, mask] : flow_control_)
        if (address == run_->address) {
            cmd.op = TraceOp::Poll;
            cmd.mask = mask;
            cmd.value = run_->last_value & mask;
        }
    const bool ordered = run_->last_time >= run_->first_time;  // initiators may annotate time loosely
    cmd.timeout_ps = timeout_ps(ordered ? run_->last_time - run_->first_time : sc_core::SC_ZERO_TIME);
    emit(format_trace_command(cmd));
    run_.reset();
    out_.flush();
}

}  // namespace ai8x
