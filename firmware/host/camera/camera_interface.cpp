#include "firmware/host/camera/camera_interface.h"

#include <fmt/format.h>

namespace ai8x {

namespace {

uint64_t to_ps(const sc_core::sc_time& t) { return uint64_t(t.to_seconds() * 1e12 + 0.5); }

}  // namespace

CameraInterface::CameraInterface(sc_core::sc_module_name name, const DeviceConfig& cfg)
    : Peripheral(name, cfg, regs::pcif::kName), trigger("trigger"), fifo_(FIFO_SIZE.get(FIFO_SIZE.DEPTH)) {
    CTRL.on_write(&CameraInterface::write_ctrl);
    DS_TIMING_CODES.on_write(&CameraInterface::write_timing_codes);
    INT_EN.on_write(&CameraInterface::write_int_en);
    INT_FL.on_write(&CameraInterface::write_int_fl);
    INT_FL.on_read(&CameraInterface::read_int_fl);
    FIFO_DATA.on_read(&CameraInterface::read_fifo_data);
    SC_THREAD(interrupt_watch);
}

void CameraInterface::end_of_elaboration() {
    if (trigger.size() == 0) return;  // no testbench block: the first capture enable starts it
    sc_core::sc_spawn_options rising;
    rising.spawn_method();
    rising.dont_initialize();
    rising.set_sensitivity(&trigger->posedge_event());
    sc_core::sc_spawn([this] { start_stream(); }, "on_trigger", &rising);
}

void CameraInterface::connect(CameraWaveform wave, CameraTiming timing) {
    stream_.emplace(std::move(wave), std::move(timing));
}

void CameraInterface::start_stream() {
    if (!stream_ || stream_->started()) return;
    stream_->start(to_ps(sc_core::sc_time_stamp()));
    schedule_wake();
}

CaptureConfig CameraInterface::capture_config() const {
    CaptureConfig c;
    c.enabled = CTRL.is_set(CTRL.PCIF_SYS);
    c.read_mode = CTRL.get(CTRL.READ_MODE);
    c.data_width = CTRL.get(CTRL.DATA_WIDTH);
    c.embedded_timing = CTRL.is_set(CTRL.DS_TIMING_EN);
    c.three_channel = CTRL.is_set(CTRL.THREE_CH_EN);
    c.sav = uint8_t(DS_TIMING_CODES.get(DS_TIMING_CODES.SAV));
    c.eav = uint8_t(DS_TIMING_CODES.get(DS_TIMING_CODES.EAV));
    return c;
}

// The instant of the bus access being served (the initiator may run ahead).
uint64_t CameraInterface::access_instant_ps() { return to_ps(sc_core::sc_time_stamp() + access_delay()); }

void CameraInterface::catch_up(uint64_t now_ps) {
    if (!stream_) return;
    stream_->advance(now_ps, capture_, capture_config(), [this](const CaptureEvent& ev, uint64_t) { take(ev); });
}

// One capture result into the FIFO and the flags.
void CameraInterface::take(const CaptureEvent& ev) {
    uint32_t fl = INT_FL.value();
    if (ev.word) {
        const bool kept = fifo_.push(ev.value);
        fl = INT_FL.FIFO_NOT_EMPTY.with(fl, 1);
        if (!kept || fifo_.full()) fl = INT_FL.FIFO_FULL.with(fl, 1);
        const unsigned threshold = CTRL.get(CTRL.FIFO_THRSH);
        if (threshold > 0 && fifo_.level() >= threshold) fl = INT_FL.FIFO_THRESH.with(fl, 1);
    }
    if (ev.frame_done) fl = INT_FL.IMG_DONE.with(fl, 1);
    INT_FL.set(fl);
}

void CameraInterface::update_irq() {
    const uint32_t flags = INT_FL.value() & ~INT_FL.FIFO_NOT_EMPTY_STATUS.mask();
    set_irq((flags & INT_EN.value()) != 0);
}

// While an interrupt is enabled, wake at the next row that changes a flag.
void CameraInterface::schedule_wake() {
    if (!stream_ || !stream_->started() || INT_EN.value() == 0) return;
    const std::optional<uint64_t> next = stream_->next_event_time(capture_, capture_config());
    if (!next) return;
    const uint64_t now = to_ps(sc_core::sc_time_stamp());
    wake_.notify(sc_core::sc_time(double(*next > now ? *next - now : 0), sc_core::SC_PS));
}

void CameraInterface::interrupt_watch() {
    for (;;) {
        sc_core::wait(wake_);
        catch_up(to_ps(sc_core::sc_time_stamp()));
        update_irq();
        schedule_wake();
    }
}

uint32_t CameraInterface::read_int_fl() {
    catch_up(access_instant_ps());
    update_irq();
    return INT_FL.FIFO_NOT_EMPTY_STATUS.with(INT_FL.value(), fifo_.empty() ? 0 : 1);
}

uint32_t CameraInterface::read_fifo_data() {
    catch_up(access_instant_ps());
    const std::optional<uint32_t> word = fifo_.pop();
    update_irq();
    return word.value_or(0);
}

// Rows before a control write were captured under the old settings.
void CameraInterface::write_ctrl(uint32_t value) {
    catch_up(access_instant_ps());
    const bool was_capturing = capture_config().capturing();
    CTRL.set(value);
    if (!was_capturing && capture_config().capturing()) {
        capture_.arm();
        // Without a testbench to trigger it, the camera runs freely: its
        // frames are there from the moment the interface looks at the pins.
        if (trigger.size() == 0) start_stream();
    }
    schedule_wake();
}

void CameraInterface::write_timing_codes(uint32_t value) {
    catch_up(access_instant_ps());
    DS_TIMING_CODES.set(value);
}

void CameraInterface::write_int_en(uint32_t value) {
    catch_up(access_instant_ps());
    INT_EN.set(value);
    update_irq();
    schedule_wake();
}

void CameraInterface::write_int_fl(uint32_t value) {
    catch_up(access_instant_ps());
    INT_FL.set(INT_FL.value() & ~value);
    update_irq();
}

CameraInterface::Summary CameraInterface::summary() const {
    Summary s;
    s.connected = stream_.has_value();
    s.words_captured = fifo_.words_in();
    s.words_read = fifo_.words_out();
    s.words_lost = fifo_.overflows();
    s.frames = capture_.frames_done();
    if (!stream_) return s;
    s.started = stream_->started();
    s.finished = stream_->finished();
    s.rows_applied = stream_->rows_applied();
    s.rows = stream_->waveform().rows.size();
    s.source = stream_->waveform().source;
    s.pace = stream_->timing().describe();
    return s;
}

std::string CameraInterface::stall_reason() const {
    const Summary s = summary();
    if (!s.connected) return "nothing feeds the camera interface (no camera waveform for this run)";
    if (!s.started) return "the camera stream was never started (the program did not write sim->trig)";
    if (!capture_config().capturing()) return "the camera interface is not capturing (CTRL.PCIF_SYS or READ_MODE off)";
    if (!s.finished || fifo_.level() > 0) return {};
    return fmt::format("the camera waveform {} ended ({} rows, {}) after {} words, {} of them read{}", s.source, s.rows,
                       s.pace, s.words_captured, s.words_read,
                       s.words_lost ? fmt::format(", {} lost to a full FIFO", s.words_lost) : "");
}

}  // namespace ai8x
