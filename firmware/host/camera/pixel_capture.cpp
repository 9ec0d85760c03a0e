#include "firmware/host/camera/pixel_capture.h"

namespace ai8x {

namespace {

constexpr unsigned kWidth8 = 0, kWidth10 = 1;

// The sample the data pins give at one PCLK edge for the configured width.
uint16_t pin_sample(uint16_t data, const CaptureConfig& cfg) {
    if (cfg.three_channel || cfg.data_width == kWidth8) return data & 0xFF;
    return data & (cfg.data_width == kWidth10 ? 0x3FF : 0xFFF);
}

// A 16-bit RGB pixel (high byte first on the wire) as the 0BGR word the
// accelerator's HWC input takes: each channel's bits left-aligned in its byte.
uint32_t expand16(uint16_t p, bool green6) {
    const uint32_t r = green6 ? (p >> 11) & 0x1F : (p >> 10) & 0x1F;
    const uint32_t g = green6 ? (p >> 5) & 0x3F : (p >> 5) & 0x1F;
    const uint32_t b = p & 0x1F;
    return (r << 3) | ((green6 ? g << 2 : g << 3) << 8) | ((b << 3) << 16);
}

}  // namespace

CaptureEvent PixelCapture::step(const CameraRow& row, const CaptureConfig& cfg) {
    CaptureEvent ev;
    const CameraRow before = last_;
    last_ = row;
    if (!cfg.capturing()) {  // disabled: the next enable waits for a new frame
        frame_ = Frame::waiting;
        packed_ = 0;
        active_video_ = false;
        return ev;
    }
    if (!cfg.embedded_timing && row.vsync && !before.vsync) ev = on_vsync_rise(cfg);
    if (row.pclk && !before.pclk && take_byte(row.data, cfg)) {
        const CaptureEvent packed = pack(pin_sample(row.data, cfg), cfg);
        ev.word = packed.word;
        ev.value = packed.value;
    }
    return ev;
}

void PixelCapture::arm() {
    if (frame_ == Frame::stopped) frame_ = Frame::waiting;
}

// VSYNC's rising edge ends one frame and begins the next: a single-image
// capture stops after its first frame with data.
CaptureEvent PixelCapture::on_vsync_rise(const CaptureConfig& cfg) {
    CaptureEvent ev;
    if (frame_ == Frame::active && frame_has_data_) {
        ev.frame_done = true;
        ++frames_;
        if (cfg.read_mode == 1) frame_ = Frame::stopped;
    } else if (frame_ == Frame::waiting) {
        frame_ = Frame::active;
    }
    frame_has_data_ = false;
    packed_ = 0;
    return ev;
}

// Whether the byte at this PCLK edge is image data.
bool PixelCapture::take_byte(uint16_t data, const CaptureConfig& cfg) {
    if (cfg.embedded_timing) {
        const uint8_t code = uint8_t(data);
        if (!active_video_ && code == cfg.sav) return active_video_ = true, false;
        if (active_video_ && code == cfg.eav) return active_video_ = false, false;
        return active_video_;
    }
    return frame_ == Frame::active && last_.href && !last_.vsync;
}

// Samples into words: three-channel mode makes one word per pixel (888: three
// bytes; 555/565, chosen by DATA_WIDTH 10/12: two bytes, high first); else
// four 8-bit samples or two 10/12-bit ones fill a word, first sample lowest.
CaptureEvent PixelCapture::pack(uint16_t sample, const CaptureConfig& cfg) {
    ++bytes_;
    frame_has_data_ = true;
    const bool wide = !cfg.three_channel && cfg.data_width != kWidth8;
    const unsigned shift = wide ? 16 : 8;
    word_ = packed_ == 0 ? sample : word_ | uint32_t(sample) << (shift * packed_);
    ++packed_;
    const unsigned per_word = cfg.three_channel ? (cfg.data_width == kWidth8 ? 3 : 2) : (wide ? 2 : 4);
    CaptureEvent ev;
    if (packed_ < per_word) return ev;
    packed_ = 0;
    ev.word = true;
    ev.value = word_;
    if (cfg.three_channel && cfg.data_width != kWidth8)
        ev.value = expand16(uint16_t((word_ & 0xFF) << 8 | (word_ >> 8 & 0xFF)), cfg.data_width != kWidth10);
    return ev;
}

}  // namespace ai8x
