#include "firmware/host/camera/camera_image.h"

namespace ai8x {

namespace {

// The waveform's shape in pixel times (izer/camera.py): VSYNC low, high and
// low again before the first row, and idle pixel times after the last.
constexpr int kVsyncLeadIn = 10, kVsyncHigh = 50, kVsyncLow = 20, kFinal = 10;

// One pixel time: PCLK low, then high for two steps, the data held throughout;
// `stretch` adds three more steps with PCLK low. The interface samples on the
// rising edge, so every pixel time carries exactly one byte.
class Writer {
public:
    explicit Writer(CameraWaveform& wave) : wave_(wave) {}

    void step(bool vsync, bool href, uint8_t d, int stretch = 0) {
        add(vsync, href, false, d);
        add(vsync, href, true, d);
        add(vsync, href, true, d);
        for (int i = 0; i < 3 * stretch; ++i) add(vsync, href, false, d);
    }
    void idle(int count, bool vsync = false) {
        for (int i = 0; i < count; ++i) step(vsync, false, 0);
    }
    // A byte of the image: HREF high, one pixel time stretched.
    void pixel(uint8_t d) { step(false, true, d, 1); }

private:
    void add(bool vsync, bool href, bool pclk, uint8_t d) { wave_.rows.push_back(CameraRow{vsync, href, pclk, d}); }
    CameraWaveform& wave_;
};

// A 16-bit pixel of 5-bit (555) or 5/6-bit (565) channels, red highest.
uint16_t pack16(const CameraImage& im, int row, int col, CameraFormat format) {
    const unsigned r = im.value(0, row, col), g = im.value(1, row, col), b = im.value(2, row, col);
    if (format == CameraFormat::rgb555) return uint16_t((r & 0xF8) << 7 | (g & 0xF8) << 2 | (b & 0xF8) >> 3);
    return uint16_t((r & 0xF8) << 8 | (g & 0xFC) << 3 | (b & 0xF8) >> 3);
}

void encode_row(Writer& w, const CameraImage& im, int row, const CameraEncoding& enc) {
    for (int col = 0; col < im.width; ++col) {
        if (enc.format == CameraFormat::rgb888) {
            for (int c = 0; c < im.channels; ++c) w.pixel(im.value(c, row, col));
        } else {
            const uint16_t p = pack16(im, row, col, enc.format);
            w.pixel(uint8_t(p >> 8));
            w.pixel(uint8_t(p));
        }
    }
    // CHW input is read four pixels to a word. The generator pads each row
    // with width % 4 blank pixels (izer/load.py), which completes the last
    // word only when that is 0 or 2; it is reproduced as written.
    if (enc.chw && enc.format == CameraFormat::rgb888)
        for (int i = 0; i < im.width % 4; ++i)
            for (int c = 0; c < im.channels; ++c) w.pixel(0);
    w.idle(enc.retrace);
}

}  // namespace

std::string CameraImage::shape() const {
    return std::to_string(channels) + "x" + std::to_string(height) + "x" + std::to_string(width);
}

CameraFormat camera_format_from_number(int number, const std::string& context) {
    switch (number) {
        case 888: return CameraFormat::rgb888;
        case 555: return CameraFormat::rgb555;
        case 565: return CameraFormat::rgb565;
        default:
            throw CameraInputError(context + ": camera format " + std::to_string(number) + " is not 888, 555 or 565");
    }
}

int camera_format_number(CameraFormat format) {
    switch (format) {
        case CameraFormat::rgb555: return 555;
        case CameraFormat::rgb565: return 565;
        default: return 888;
    }
}

CameraWaveform encode_camera_waveform(const CameraImage& image, const CameraEncoding& encoding,
                                      const std::string& source) {
    if (encoding.format != CameraFormat::rgb888 && image.channels != 3)
        throw CameraInputError(source + ": format " + std::to_string(camera_format_number(encoding.format)) +
                               " needs 3 channels, the image has " + std::to_string(image.channels));
    CameraWaveform wave;
    wave.source = source;
    Writer w(wave);
    w.idle(kVsyncLeadIn);
    w.idle(kVsyncHigh, true);
    w.idle(kVsyncLow);
    for (int row = 0; row < image.height; ++row) encode_row(w, image, row, encoding);
    w.idle(kFinal);
    return wave;
}

}  // namespace ai8x
