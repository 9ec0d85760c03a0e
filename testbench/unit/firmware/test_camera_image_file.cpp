// Pictures for --camera: PNG (written here with libpng's simplified API) and
// Netpbm files read as channel-first camera bytes, and the refusals.
#include <catch2/catch.hpp>

#include <png.h>

#include "firmware/host/camera/camera_image_file.h"
#include "testbench/unit/test_support.h"

using namespace ai8x;

namespace {

// A 2x3 picture (height 2, width 3) with distinct values in every sample.
std::vector<uint8_t> interleaved(int channels) {
    std::vector<uint8_t> px;
    for (int p = 0; p < 6; ++p)
        for (int c = 0; c < channels; ++c) px.push_back(uint8_t(16 * p + c + 1));
    return px;
}

std::string write_png(const test::ScratchDir& dir, const std::string& name, uint32_t format, const void* pixels,
                      const void* colormap = nullptr, int colors = 0) {
    png_image im{};
    im.version = PNG_IMAGE_VERSION;
    im.width = 3;
    im.height = 2;
    im.format = format;
    im.colormap_entries = png_uint_32(colors);
    const std::string path = (dir.path / name).string();
    REQUIRE(png_image_write_to_file(&im, path.c_str(), 0, pixels, 0, colormap));
    return path;
}

// What read_camera_image should give for `interleaved(channels)`, keeping `keep` channels.
std::vector<uint8_t> planar(int channels, int keep) {
    const std::vector<uint8_t> px = interleaved(channels);
    std::vector<uint8_t> out;
    for (int c = 0; c < keep; ++c)
        for (int p = 0; p < 6; ++p) out.push_back(px[std::size_t(p * channels + c)]);
    return out;
}

std::string image_error_of(const std::string& path) {
    try {
        read_camera_image(path);
    } catch (const CameraInputError& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace

TEST_CASE("PNG pictures become channel-first camera bytes", "[camera]") {
    test::ScratchDir dir("camera-png");
    const std::vector<uint8_t> rgb = interleaved(3), gray = interleaved(1), rgba = interleaved(4);
    const CameraImage c = read_camera_image(write_png(dir, "rgb.png", PNG_FORMAT_RGB, rgb.data()));
    CHECK(c.shape() == "3x2x3");
    CHECK(c.bytes == planar(3, 3));
    const CameraImage g = read_camera_image(write_png(dir, "gray.png", PNG_FORMAT_GRAY, gray.data()));
    CHECK(g.shape() == "1x2x3");
    CHECK(g.bytes == planar(1, 1));
    const CameraImage a = read_camera_image(write_png(dir, "rgba.png", PNG_FORMAT_RGBA, rgba.data()));
    CHECK(a.shape() == "3x2x3");  // alpha dropped, colours kept as stored
    CHECK(a.bytes == planar(4, 3));
    CHECK(is_camera_image_file((dir.path / "rgb.png").string()));
}

TEST_CASE("Palette PNGs are expanded to their colours", "[camera]") {
    test::ScratchDir dir("camera-png-palette");
    const uint8_t colormap[2 * 3] = {10, 20, 30, 200, 150, 100};
    const uint8_t index[6] = {0, 1, 1, 0, 0, 1};
    const CameraImage p = read_camera_image(write_png(dir, "pal.png", PNG_FORMAT_RGB_COLORMAP, index, colormap, 2));
    REQUIRE(p.shape() == "3x2x3");
    CHECK(p.value(0, 0, 1) == 200);
    CHECK(p.value(2, 1, 0) == 30);
}

TEST_CASE("PPM and PGM pictures, binary and text, with comments", "[camera]") {
    test::ScratchDir dir("camera-ppm");
    const std::vector<uint8_t> rgb = interleaved(3);
    dir.write("a.ppm", "P6\n# made by a test\n3 2\n255\n" + std::string(rgb.begin(), rgb.end()));
    CHECK(read_camera_image((dir.path / "a.ppm").string()).bytes == planar(3, 3));
    std::string text = "P3 3 2 255\n";
    for (uint8_t v : rgb) text += std::to_string(v) + " ";
    dir.write("t.ppm", text);
    CHECK(read_camera_image((dir.path / "t.ppm").string()).bytes == planar(3, 3));
    dir.write("g.pgm", "P5 3 2 15\n" + std::string("\x00\x0f\x01\x02\x03\x04", 6));
    const CameraImage g = read_camera_image((dir.path / "g.pgm").string());
    CHECK(g.shape() == "1x2x3");
    CHECK(g.bytes == std::vector<uint8_t>{0, 255, 17, 34, 51, 68});  // scaled to 8 bits
}

TEST_CASE("Unreadable pictures are refused naming the file", "[camera][bad-input]") {
    test::ScratchDir dir("camera-bad-image");
    dir.write("short.ppm", "P6 3 2 255\nabc");
    const std::string s = (dir.path / "short.ppm").string();
    CHECK(image_error_of(s) == s + ": has 3 bytes of samples, 18 expected for 3x2x3");
    dir.write("cut.png", std::string("\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR", 16));
    const std::string c = (dir.path / "cut.png").string();
    CHECK(test::contains(image_error_of(c), c + ": not a readable PNG: "));
    dir.write("x.bmp", "BM....");
    const std::string b = (dir.path / "x.bmp").string();
    CHECK(image_error_of(b) == b + ": is neither a PNG nor a PPM/PGM image");
    CHECK_FALSE(is_camera_image_file(b));
    CHECK(image_error_of((dir.path / "none.png").string()) ==
          (dir.path / "none.png").string() + ": cannot read the image (missing or empty)");
    dir.write("hdr.ppm", "P6 3 x 255\n");
    CHECK(image_error_of((dir.path / "hdr.ppm").string()) ==
          (dir.path / "hdr.ppm").string() + ": expected the height (a decimal number)");
}
