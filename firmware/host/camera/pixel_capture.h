// The pin side of the parallel camera interface (PCIF): what it makes of the
// camera's VSYNC, HREF, PCLK and data pins, one time step of the waveform at
// a time. Bytes are taken on PCLK's rising edge while HREF is high inside a
// frame (or, with embedded timing, between SAV and EAV codes) and packed into
// the 32-bit words the data FIFO holds. The register side (CTRL fields) comes
// in as a CaptureConfig. docs/camera.md has the rules and where
// each comes from.
#pragma once

#include <cstdint>

#include "firmware/host/camera/camera_waveform.h"

namespace ai8x {

// CTRL and DS_TIMING_CODES as the capture logic reads them.
struct CaptureConfig {
    bool enabled = false;          // PCIF_SYS
    unsigned read_mode = 0;        // READ_MODE: 0 off, 1 single image, 2 continuous
    unsigned data_width = 0;       // DATA_WIDTH: 0 8-bit, 1 10-bit, 2 12-bit
    bool embedded_timing = false;  // DS_TIMING_EN: SAV/EAV codes in the data instead of HREF and VSYNC
    bool three_channel = false;    // THREE_CH_EN: one word per RGB pixel
    uint8_t sav = 0, eav = 0;      // DS_TIMING_CODES

    bool capturing() const { return enabled && (read_mode == 1 || read_mode == 2); }
};

// What one time step produced.
struct CaptureEvent {
    bool word = false;  // a FIFO word is complete
    uint32_t value = 0;
    bool frame_done = false;  // a frame with data ended (IMG_DONE)
    bool any() const { return word || frame_done; }
};

class PixelCapture {
public:
    // The pins hold `row` from now on.
    CaptureEvent step(const CameraRow& row, const CaptureConfig& cfg);
    // Back to power-on state (no frame seen, nothing packed).
    void reset() { *this = PixelCapture(); }
    // A single-image capture that has stopped waits for the next frame again
    // (the firmware starts another capture).
    void arm();

    uint64_t bytes_captured() const { return bytes_; }
    uint64_t frames_done() const { return frames_; }

private:
    enum class Frame { waiting, active, stopped };
    CaptureEvent on_vsync_rise(const CaptureConfig& cfg);
    bool take_byte(uint16_t data, const CaptureConfig& cfg);
    CaptureEvent pack(uint16_t sample, const CaptureConfig& cfg);

    CameraRow last_;  // the pins before this step (all low at power-on)
    Frame frame_ = Frame::waiting;
    bool frame_has_data_ = false;
    bool active_video_ = false;  // embedded timing: between SAV and EAV
    uint32_t word_ = 0;          // samples packed so far
    unsigned packed_ = 0;
    uint64_t bytes_ = 0, frames_ = 0;
};

}  // namespace ai8x
