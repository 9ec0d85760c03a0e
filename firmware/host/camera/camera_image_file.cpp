#include "firmware/host/camera/camera_image_file.h"

#include <png.h>

#include <cctype>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>

namespace ai8x {

namespace {

[[noreturn]] void fail_image(const std::string& path, const std::string& what) {
    throw CameraInputError(path + ": " + what);
}

std::string first_bytes(const std::string& path, std::size_t n) {
    std::ifstream in(path, std::ios::binary);
    std::string s(n, '\0');
    in.read(s.data(), std::streamsize(n));
    s.resize(std::size_t(in.gcount()));
    return s;
}

bool is_png(const std::string& head) {
    return head.size() >= 8 && png_sig_cmp(reinterpret_cast<png_const_bytep>(head.data()), 0, 8) == 0;
}

bool is_netpbm(const std::string& head) {
    return head.size() >= 2 && head[0] == 'P' && (head[1] == '2' || head[1] == '3' || head[1] == '5' || head[1] == '6');
}

// --- PNG (libpng) ---

// libpng reports an error by jumping back to the setjmp of decode_png; the
// message is kept for the exception thrown after it.
void png_error_jump(png_structp png, png_const_charp message) {
    *static_cast<std::string*>(png_get_error_ptr(png)) = message;
    png_longjmp(png, 1);
}
void png_warning_ignored(png_structp, png_const_charp) {}

struct PngReader {
    std::string error;
    png_structp png = nullptr;
    png_infop info = nullptr;
    std::vector<uint8_t> pixels;  // interleaved samples, row after row
    std::vector<png_bytep> rows;
    ~PngReader() { png_destroy_read_struct(&png, info ? &info : nullptr, nullptr); }
};

// 8-bit grey or RGB samples, whatever the file stores.
void normalise_png(png_structp png, png_infop info) {
    const int type = png_get_color_type(png, info);
    if (png_get_bit_depth(png, info) == 16) png_set_strip_16(png);
    if (type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (type == PNG_COLOR_TYPE_GRAY && png_get_bit_depth(png, info) < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (type & PNG_COLOR_MASK_ALPHA) png_set_strip_alpha(png);
    png_read_update_info(png, info);
}

// Everything that may jump back lives in `r` (constructed before the
// setjmp), so nothing here is skipped by the jump. False: r.error says why.
bool decode_png(FILE* file, PngReader& r, CameraImage& im) {
    if (setjmp(png_jmpbuf(r.png))) return false;
    png_init_io(r.png, file);
    png_read_info(r.png, r.info);
    normalise_png(r.png, r.info);
    im.channels = int(png_get_channels(r.png, r.info));
    im.width = int(png_get_image_width(r.png, r.info));
    im.height = int(png_get_image_height(r.png, r.info));
    const std::size_t stride = png_get_rowbytes(r.png, r.info);
    r.pixels.resize(std::size_t(im.height) * stride);
    r.rows.resize(std::size_t(im.height));
    for (std::size_t y = 0; y < r.rows.size(); ++y) r.rows[y] = &r.pixels[y * stride];
    png_read_image(r.png, r.rows.data());
    return true;
}

CameraImage read_png(const std::string& path) {
    std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!file) fail_image(path, "cannot open the image");
    PngReader r;
    r.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &r.error, png_error_jump, png_warning_ignored);
    if (r.png) r.info = png_create_info_struct(r.png);
    if (!r.png || !r.info) fail_image(path, "libpng could not start");
    CameraImage im;
    if (!decode_png(file.get(), r, im)) fail_image(path, "not a readable PNG: " + r.error);
    // Interleaved (RGBRGB...) to channel-first.
    const std::size_t plane = std::size_t(im.height) * im.width, n = std::size_t(im.channels);
    im.bytes.resize(plane * n);
    for (std::size_t c = 0; c < n; ++c)
        for (std::size_t p = 0; p < plane; ++p) im.bytes[c * plane + p] = r.pixels[p * n + c];
    return im;
}

// --- Netpbm (P2/P3 text, P5/P6 binary; a few lines, so no library) ---

class NetpbmText {
public:
    NetpbmText(const std::string& path, std::string data) : path_(path), data_(std::move(data)) {}

    // The next decimal number, skipping whitespace and # comments.
    unsigned number(const char* what) {
        for (;;) {
            while (pos_ < data_.size() && std::isspace(static_cast<unsigned char>(data_[pos_]))) ++pos_;
            if (pos_ < data_.size() && data_[pos_] == '#') {
                while (pos_ < data_.size() && data_[pos_] != '\n') ++pos_;
                continue;
            }
            break;
        }
        if (pos_ >= data_.size() || !std::isdigit(static_cast<unsigned char>(data_[pos_])))
            fail_image(path_, std::string("expected the ") + what + " (a decimal number)");
        unsigned long v = 0;
        while (pos_ < data_.size() && std::isdigit(static_cast<unsigned char>(data_[pos_])) && v < 100000000)
            v = v * 10 + unsigned(data_[pos_++] - '0');
        return unsigned(v);
    }
    // Binary samples start after exactly one whitespace byte behind the header.
    std::size_t binary_start() { return pos_ + 1; }
    const std::string& data() const { return data_; }

private:
    const std::string& path_;
    std::string data_;
    std::size_t pos_ = 2;
};

CameraImage read_netpbm(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    NetpbmText t(path, std::string(std::istreambuf_iterator<char>(in), {}));
    const char kind = t.data()[1];
    CameraImage im;
    im.channels = (kind == '3' || kind == '6') ? 3 : 1;
    im.width = int(t.number("width"));
    im.height = int(t.number("height"));
    const unsigned maxval = t.number("maximum value");
    if (im.width == 0 || im.height == 0 || maxval == 0 || maxval > 65535)
        fail_image(path, "header is not a valid Netpbm image");
    const std::size_t samples = std::size_t(im.width) * im.height * im.channels;
    const bool binary = kind == '5' || kind == '6';
    const std::size_t wide = maxval > 255 ? 2 : 1, start = binary ? t.binary_start() : 0;
    if (binary && t.data().size() < start + samples * wide)
        fail_image(path, "has " + std::to_string(t.data().size() - std::min(start, t.data().size())) +
                             " bytes of samples, " + std::to_string(samples * wide) + " expected for " + im.shape());
    im.bytes.resize(samples);
    for (std::size_t i = 0; i < samples; ++i) {
        unsigned v =
            binary ? (wide == 2 ? unsigned(uint8_t(t.data()[start + 2 * i])) << 8 | uint8_t(t.data()[start + 2 * i + 1])
                                : uint8_t(t.data()[start + i]))
                   : t.number("sample");
        if (v > maxval) fail_image(path, "sample " + std::to_string(i) + " exceeds the maximum value");
        const std::size_t p = i / std::size_t(im.channels), c = i % std::size_t(im.channels);
        im.bytes[c * std::size_t(im.height) * im.width + p] = uint8_t((v * 255 + maxval / 2) / maxval);
    }
    return im;
}

}  // namespace

bool is_camera_image_file(const std::string& path) {
    const std::string head = first_bytes(path, 8);
    return is_png(head) || is_netpbm(head);
}

CameraImage read_camera_image(const std::string& path) {
    const std::string head = first_bytes(path, 8);
    if (head.empty()) fail_image(path, "cannot read the image (missing or empty)");
    if (is_png(head)) return read_png(path);
    if (is_netpbm(head)) return read_netpbm(path);
    fail_image(path, "is neither a PNG nor a PPM/PGM image");
}

}  // namespace ai8x
