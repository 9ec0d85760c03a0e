// A camera waveform played into the interface's pins, row after row, at the
// pace the RTL testbench plays it (run_test.sv, written by izer/rtlsim.py):
//
// - asynchronous (the default): from the trigger on, a row every
//   `row_ns` (--input-csv-period; the generator's default 80 ns);
// - synchronous (--input-sync): a row at each rising edge of a pixel clock
//   made from a free-running clock (pclk_ai) by counting it modulo N + 1
//   (--input-pix-clk N): the edge comes when the count reaches N.
//
// Time is in picoseconds (SystemC's resolution). The stream evaluates lazily:
// advance() applies every row up to an instant, and next_event_time() says
// when the next row that produces something (a FIFO word, a frame's end) is
// due, so a SystemC process wakes once per word, not per row.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "firmware/host/camera/camera_waveform.h"
#include "firmware/host/camera/pixel_capture.h"

namespace ai8x {

struct CameraTiming {
    double row_ns = 80;                    // asynchronous row period
    std::optional<uint32_t> sync_divider;  // synchronous: N of --input-pix-clk
    double sync_clock_hz = 0;              // synchronous: the clock counted (configs: the camera's sync clock)

    bool synchronous() const { return sync_divider.has_value(); }
    // "a row every 160 ns" / "a row every 12 cycles of 60 MHz (200 ns)"
    std::string describe() const;
};

class CameraStream {
public:
    CameraStream(CameraWaveform wave, CameraTiming timing);

    // The trigger: the first row goes onto the pins at `t0_ps` (asynchronous)
    // or at the first pixel-clock edge after it (synchronous). Later triggers
    // are ignored: run_test.sv waits for the first one only.
    void start(uint64_t t0_ps);
    bool started() const { return started_; }
    // Every row has been applied; the pins keep the last one.
    bool finished() const { return started_ && next_ >= wave_.rows.size(); }

    uint64_t row_time(std::size_t index) const;
    // When the next row that makes `capture` report something under `cfg`
    // goes onto the pins; empty when none will (not started, or no row left
    // that does).
    std::optional<uint64_t> next_event_time(const PixelCapture& capture, const CaptureConfig& cfg) const;

    using Sink = std::function<void(const CaptureEvent&, uint64_t time_ps)>;
    // Applies every row due at or before `now_ps` to `capture` under `cfg`;
    // `sink` gets each event with its row's instant.
    void advance(uint64_t now_ps, PixelCapture& capture, const CaptureConfig& cfg, const Sink& sink);

    const CameraWaveform& waveform() const { return wave_; }
    const CameraTiming& timing() const { return timing_; }
    std::size_t rows_applied() const { return next_; }

private:
    CameraWaveform wave_;
    CameraTiming timing_;
    bool started_ = false;
    uint64_t t0_ps_ = 0;
    double first_edge_cycle_ = 0;  // synchronous: the pixel-clock edge of row 0, in sync-clock cycles
    std::size_t next_ = 0;         // the next row to apply
};

}  // namespace ai8x
