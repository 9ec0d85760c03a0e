#include "firmware/host/camera/camera_stream.h"

#include <cmath>

#include <fmt/format.h>

namespace ai8x {

std::string CameraTiming::describe() const {
    if (!synchronous()) return fmt::format("a row every {:g} ns", row_ns);
    const double row = (*sync_divider + 1) * 1e9 / sync_clock_hz;
    return fmt::format("a row every {} cycles of {:g} MHz ({:g} ns)", *sync_divider + 1, sync_clock_hz / 1e6, row);
}

CameraStream::CameraStream(CameraWaveform wave, CameraTiming timing)
    : wave_(std::move(wave)), timing_(std::move(timing)) {}

void CameraStream::start(uint64_t t0_ps) {
    if (started_) return;
    started_ = true;
    t0_ps_ = t0_ps;
    if (!timing_.synchronous()) return;
    // The pixel clock's edges fall on sync-clock cycles N, 2N+1, 3N+2, ...
    // (the count reaches N); the first row waits for the first edge after t0.
    const double n = *timing_.sync_divider, cycle_ps = 1e12 / timing_.sync_clock_hz;
    // t0 in sync-clock cycles; an edge within half a picosecond of t0 (an
    // edge's instant is rounded to whole picoseconds) counts as at t0, not after it.
    const double x = (double(t0_ps) + 0.5) / cycle_ps;
    const double m = x < n ? 0 : std::floor((x - n) / (n + 1)) + 1;
    first_edge_cycle_ = n + m * (n + 1);
}

uint64_t CameraStream::row_time(std::size_t index) const {
    if (!timing_.synchronous()) return t0_ps_ + uint64_t(std::llround(double(index) * timing_.row_ns * 1000));
    const double cycle = first_edge_cycle_ + double(index) * (*timing_.sync_divider + 1);
    return uint64_t(std::llround(cycle * 1e12 / timing_.sync_clock_hz));
}

std::optional<uint64_t> CameraStream::next_event_time(const PixelCapture& capture, const CaptureConfig& cfg) const {
    if (!started_) return std::nullopt;
    PixelCapture ahead = capture;  // a few words of state: look ahead on a copy
    for (std::size_t i = next_; i < wave_.rows.size(); ++i)
        if (ahead.step(wave_.rows[i], cfg).any()) return row_time(i);
    return std::nullopt;
}

void CameraStream::advance(uint64_t now_ps, PixelCapture& capture, const CaptureConfig& cfg, const Sink& sink) {
    if (!started_) return;
    for (; next_ < wave_.rows.size(); ++next_) {
        const uint64_t t = row_time(next_);
        if (t > now_ps) break;
        const CaptureEvent ev = capture.step(wave_.rows[next_], cfg);
        if (ev.any()) sink(ev, t);
    }
}

}  // namespace ai8x
