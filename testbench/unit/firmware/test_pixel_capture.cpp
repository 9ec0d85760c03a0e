// The camera interface's pin logic, its data FIFO, and the pace of the
// waveform: which words a waveform gives under each CTRL setting, frames and
// capture modes, overflow, and the instants of rows and events.
#include <catch2/catch.hpp>

#include <cmath>

#include "firmware/host/camera/camera_fifo.h"
#include "firmware/host/camera/camera_image.h"
#include "firmware/host/camera/camera_stream.h"
#include "firmware/host/camera/pixel_capture.h"

using namespace ai8x;

namespace {

CaptureConfig capture_settings(unsigned read_mode, unsigned width, bool three_channel) {
    CaptureConfig c;
    c.enabled = true;
    c.read_mode = read_mode;
    c.data_width = width;
    c.three_channel = three_channel;
    return c;
}

struct Captured {
    std::vector<uint32_t> words;
    unsigned frames = 0;
};

Captured run(const CameraWaveform& w, const CaptureConfig& cfg, PixelCapture& cap) {
    Captured out;
    for (const CameraRow& r : w.rows) {
        const CaptureEvent ev = cap.step(r, cfg);
        if (ev.word) out.words.push_back(ev.value);
        if (ev.frame_done) ++out.frames;
    }
    return out;
}

Captured run(const CameraWaveform& w, const CaptureConfig& cfg) {
    PixelCapture cap;
    return run(w, cfg, cap);
}

CameraWaveform wave(const CameraImage& im, CameraFormat f) { return encode_camera_waveform(im, {f, false, 5}, "t"); }

// Two frames back to back: the second one's VSYNC pulse ends the first.
CameraWaveform two_frames(const CameraImage& a, const CameraImage& b) {
    CameraWaveform w = wave(a, CameraFormat::rgb888);
    const CameraWaveform second = wave(b, CameraFormat::rgb888);
    w.rows.insert(w.rows.end(), second.rows.begin(), second.rows.end());
    return w;
}

const CameraImage kRgb{3, 1, 2, {0x10, 0xF3, 0x22, 0x80, 0x7F, 0x01}};  // [c][row][col]

}  // namespace

TEST_CASE("Three-channel 888 capture makes one 0BGR word per pixel", "[camera]") {
    const Captured c = run(wave(kRgb, CameraFormat::rgb888), capture_settings(1, 0, true));
    CHECK(c.words == std::vector<uint32_t>{0x7F2210u, 0x0180F3u});
}

TEST_CASE("Three-channel 565 and 555 capture expands each channel to its byte", "[camera]") {
    // Values the generator masks to 565 / 555 precision come back unchanged.
    const CameraImage im{3, 1, 1, {0xA8, 0x6C, 0x38}};
    CHECK(run(wave(im, CameraFormat::rgb565), capture_settings(1, 2, true)).words == std::vector<uint32_t>{0x386CA8u});
    const CameraImage im5{3, 1, 1, {0xA8, 0x68, 0x38}};
    CHECK(run(wave(im5, CameraFormat::rgb555), capture_settings(1, 1, true)).words == std::vector<uint32_t>{0x3868A8u});
    // Bits below the format's precision are not on the wire.
    const CameraImage low{3, 1, 1, {0xAF, 0x6F, 0x3F}};
    CHECK(run(wave(low, CameraFormat::rgb565), capture_settings(1, 2, true)).words == std::vector<uint32_t>{0x386CA8u});
}

TEST_CASE("Without three-channel mode, four bytes fill a word, first byte lowest", "[camera]") {
    const CameraImage gray{1, 1, 8, {1, 2, 3, 4, 5, 6, 7, 8}};
    CHECK(run(wave(gray, CameraFormat::rgb888), capture_settings(1, 0, false)).words ==
          std::vector<uint32_t>{0x04030201u, 0x08070605u});
    // 10/12-bit samples: two to a word.
    CHECK(run(wave(gray, CameraFormat::rgb888), capture_settings(1, 2, false)).words ==
          std::vector<uint32_t>{0x00020001u, 0x00040003u, 0x00060005u, 0x00080007u});
}

TEST_CASE("A disabled interface captures nothing", "[camera]") {
    CaptureConfig off = capture_settings(1, 0, true);
    off.enabled = false;
    CHECK(run(wave(kRgb, CameraFormat::rgb888), off).words.empty());
    CHECK(run(wave(kRgb, CameraFormat::rgb888), capture_settings(0, 0, true)).words.empty());
}

TEST_CASE("Single-image capture stops after its frame, continuous capture goes on", "[camera]") {
    const CameraImage other{3, 1, 1, {1, 2, 3}};
    const CameraWaveform w = two_frames(kRgb, other);
    const Captured single = run(w, capture_settings(1, 0, true));
    CHECK(single.words.size() == 2);
    CHECK(single.frames == 1);  // the second VSYNC ended the first frame
    const Captured cont = run(w, capture_settings(2, 0, true));
    CHECK(cont.words.size() == 3);
    CHECK(cont.words.back() == 0x030201u);
    // A stopped single capture waits for the next frame once armed again.
    PixelCapture cap;
    run(w, capture_settings(1, 0, true), cap);
    cap.arm();
    CHECK(run(w, capture_settings(1, 0, true), cap).words.size() == 2);
}

TEST_CASE("A capture enabled in the middle of a frame waits for the next VSYNC", "[camera]") {
    const CameraWaveform w = wave(kRgb, CameraFormat::rgb888);
    PixelCapture cap;
    const CaptureConfig on = capture_settings(1, 0, true);
    CaptureConfig off = on;
    off.enabled = false;
    std::size_t words = 0;
    for (std::size_t i = 0; i < w.rows.size(); ++i)
        words += cap.step(w.rows[i], i < 3 * 70 ? off : on).word;  // enabled after the VSYNC pulse
    CHECK(words == 0);
}

TEST_CASE("Embedded timing captures the bytes between the SAV and EAV codes", "[camera]") {
    CaptureConfig cfg = capture_settings(1, 0, false);
    cfg.embedded_timing = true;
    cfg.sav = 0xAB;
    cfg.eav = 0xCD;
    const CameraImage bytes{1, 1, 8, {0x11, 0xAB, 1, 2, 3, 4, 0xCD, 0x22}};
    CHECK(run(wave(bytes, CameraFormat::rgb888), cfg).words == std::vector<uint32_t>{0x04030201u});
}

TEST_CASE("The data FIFO holds its depth and counts what it loses", "[camera]") {
    CameraFifo f(8);
    for (uint32_t i = 0; i < 8; ++i) CHECK(f.push(i));
    CHECK(f.full());
    CHECK_FALSE(f.push(99));
    CHECK(f.overflows() == 1);
    CHECK(f.pop() == 0u);
    CHECK(f.push(8));
    for (uint32_t i = 1; i <= 8; ++i) CHECK(f.pop() == i);
    CHECK_FALSE(f.pop());
    CHECK(f.words_in() == 9);
    CHECK(f.words_out() == 9);
}

TEST_CASE("Asynchronous rows follow the trigger at the row period", "[camera]") {
    CameraStream s(wave(kRgb, CameraFormat::rgb888), CameraTiming{160, std::nullopt, 0});
    CHECK_FALSE(s.started());
    s.start(5000);
    s.start(99999);  // only the first trigger counts
    CHECK(s.row_time(0) == 5000);
    CHECK(s.row_time(10) == 5000 + 10 * 160000);
    CHECK(s.timing().describe() == "a row every 160 ns");
}

TEST_CASE("Synchronous rows come at the pixel clock's edges, every N+1 cycles", "[camera]") {
    const CameraTiming t{80, 11u, 60e6};
    const double cycle = 1e12 / 60e6;
    CameraStream a(wave(kRgb, CameraFormat::rgb888), t);
    a.start(0);
    CHECK(a.row_time(0) == uint64_t(std::llround(11 * cycle)));
    CHECK(a.row_time(2) == uint64_t(std::llround(35 * cycle)));
    CameraStream b(wave(kRgb, CameraFormat::rgb888), t);
    b.start(uint64_t(std::llround(11 * cycle)));  // on an edge: the next one
    CHECK(b.row_time(0) == uint64_t(std::llround(23 * cycle)));
    CHECK(t.describe() == "a row every 12 cycles of 60 MHz (200 ns)");
}

TEST_CASE("The stream's next event is when advancing produces it", "[camera]") {
    CameraStream s(wave(kRgb, CameraFormat::rgb888), CameraTiming{100, std::nullopt, 0});
    PixelCapture cap;
    const CaptureConfig cfg = capture_settings(1, 0, true);
    CHECK_FALSE(s.next_event_time(cap, cfg));  // not started
    s.start(0);
    std::vector<std::pair<uint32_t, uint64_t>> got;
    const auto sink = [&](const CaptureEvent& e, uint64_t t) { got.emplace_back(e.value, t); };
    for (int i = 0; i < 2; ++i) {
        const auto next = s.next_event_time(cap, cfg);
        REQUIRE(next);
        s.advance(*next - 1, cap, cfg, sink);
        CHECK(got.size() == std::size_t(i));
        s.advance(*next, cap, cfg, sink);
        REQUIRE(got.size() == std::size_t(i + 1));
        CHECK(got.back().second == *next);
    }
    CHECK_FALSE(s.next_event_time(cap, cfg));  // nothing more in this waveform
    s.advance(UINT64_MAX, cap, cfg, sink);
    CHECK(s.finished());
    CHECK(got.size() == 2);
}
