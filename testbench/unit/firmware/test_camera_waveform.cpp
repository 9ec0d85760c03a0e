// Camera waveforms: the .csv reader's rows and its file:line errors, the
// writer's text, and the waveform an image becomes (izer/camera.py's shape).
#include <catch2/catch.hpp>

#include <sstream>

#include "firmware/host/camera/camera_image.h"
#include "firmware/host/camera/camera_waveform.h"

using namespace ai8x;

namespace {

CameraWaveform parse(const std::string& text) {
    std::istringstream in(text);
    return parse_camera_csv(in, "cam.csv");
}

std::string csv_error_of(const std::string& text) {
    try {
        parse(text);
    } catch (const CameraInputError& e) {
        return e.what();
    }
    return "(no error)";
}

std::string text_of(const CameraWaveform& w) {
    std::ostringstream out;
    write_camera_csv(out, w);
    return out.str();
}

CameraImage image(int c, int h, int w, std::vector<uint8_t> bytes) { return CameraImage{c, h, w, std::move(bytes)}; }

// The rows of the image part: every row with HREF high.
std::vector<CameraRow> href_rows(const CameraWaveform& w) {
    std::vector<CameraRow> out;
    for (const CameraRow& r : w.rows)
        if (r.href) out.push_back(r);
    return out;
}

}  // namespace

TEST_CASE("A camera .csv is read row by row, hexadecimal, with the lines kept", "[camera]") {
    const CameraWaveform w = parse("vsync,href,pclk,d\r\n0,0,0,00\n\n1,0,1,Ff\n0,1,1,a3c\n");
    REQUIRE(w.rows.size() == 3);
    CHECK(w.rows[1].vsync);
    CHECK(w.rows[1].pclk);
    CHECK(w.rows[1].data == 0xFF);
    CHECK(w.rows[2].href);
    CHECK(w.rows[2].data == 0xA3C);
    CHECK(w.where(2) == "cam.csv:5");  // the blank line counts
}

TEST_CASE("A malformed camera .csv is refused naming file and line", "[camera][bad-input]") {
    CHECK(csv_error_of("0,0,0,00\n") == "cam.csv:1: expected the header 'vsync,href,pclk,d', found '0,0,0,00'");
    CHECK(csv_error_of("") == "cam.csv:1: empty: expected the header 'vsync,href,pclk,d'");
    CHECK(csv_error_of("vsync,href,pclk,d\n") == "cam.csv:1: no rows after the header");
    CHECK(csv_error_of("vsync,href,pclk,d\n0,0,0,00\n0,0,00\n") ==
          "cam.csv:3: expected 4 fields vsync,href,pclk,d, found 3");
    CHECK(csv_error_of("vsync,href,pclk,d\n0,0,0,00\n0,0,0,00,\n") ==
          "cam.csv:3: expected 4 fields vsync,href,pclk,d, found 5");
    CHECK(csv_error_of("vsync,href,pclk,d\n0,0,0,zz\n") == "cam.csv:2: field d 'zz' is not a hex number");
    CHECK(csv_error_of("vsync,href,pclk,d\n0,2,0,00\n") == "cam.csv:2: pin href is 2, not 0 or 1");
    CHECK(csv_error_of("vsync,href,pclk,d\n0,0,0,1000\n") == "cam.csv:2: data 1000 is wider than the 12 data pins");
    CHECK(csv_error_of("vsync,href,pclk,d\n0,,0,00\n") == "cam.csv:2: field href '' is not a hex number");
}

TEST_CASE("A missing camera .csv names its path", "[camera][bad-input]") {
    CHECK_THROWS_WITH(read_camera_csv("/nonexistent/cam.csv"), "/nonexistent/cam.csv: cannot open the camera waveform");
}

TEST_CASE("Written waveforms read back the same, in the generator's text", "[camera]") {
    const std::string text = "vsync,href,pclk,d\n0,0,0,00\n1,0,1,0f\n0,1,1,abc\n";
    CHECK(text_of(parse(text)) == text);
}

TEST_CASE("An image becomes camera.py's waveform: VSYNC pulse, pixel times, retrace", "[camera]") {
    // 1 channel, 1 row of 2 pixels, 888, retrace 2.
    const CameraWaveform w =
        encode_camera_waveform(image(1, 1, 2, {0x12, 0x80}), {CameraFormat::rgb888, false, 2}, "im");
    // Lead-in 10, VSYNC high 50, low 20 idle pixel times of 3 rows; 2 pixels of 6
    // rows; retrace 2 and final 10 idle pixel times.
    REQUIRE(w.rows.size() == 3 * 80 + 6 * 2 + 3 * (2 + 10));
    for (int i = 0; i < 3 * 10; ++i) CHECK_FALSE(w.rows[std::size_t(i)].vsync);
    for (int i = 30; i < 30 + 150; ++i) CHECK(w.rows[std::size_t(i)].vsync);
    const std::vector<CameraRow> px = href_rows(w);
    REQUIRE(px.size() == 12);
    const bool pclk[6] = {false, true, true, false, false, false};
    for (int i = 0; i < 12; ++i) {
        CHECK(px[std::size_t(i)].pclk == pclk[i % 6]);
        CHECK(px[std::size_t(i)].data == (i < 6 ? 0x12 : 0x80));
    }
}

TEST_CASE("565 and 555 send one 16-bit word per pixel, high byte first", "[camera]") {
    // R 0xFF, G 0x84, B 0x17 (as the generator masks them: R&F8, G&FC / G&F8, B&F8).
    const CameraImage im = image(3, 1, 1, {0xFF, 0x84, 0x17});
    const std::vector<CameraRow> p565 = href_rows(encode_camera_waveform(im, {CameraFormat::rgb565, false, 5}, "im"));
    const uint16_t w565 = (0xF8 << 8) | (0x84 << 3) | (0x10 >> 3);
    REQUIRE(p565.size() == 12);
    CHECK(p565[0].data == (w565 >> 8));
    CHECK(p565[6].data == (w565 & 0xFF));
    const std::vector<CameraRow> p555 = href_rows(encode_camera_waveform(im, {CameraFormat::rgb555, false, 5}, "im"));
    const uint16_t w555 = (0xF8 << 7) | (0x80 << 2) | (0x10 >> 3);
    CHECK(p555[0].data == (w555 >> 8));
    CHECK(p555[6].data == (w555 & 0xFF));
    CHECK_THROWS_WITH(encode_camera_waveform(image(1, 1, 1, {0}), {CameraFormat::rgb565, false, 5}, "im"),
                      "im: format 565 needs 3 channels, the image has 1");
}

TEST_CASE("CHW 888 rows are padded with width % 4 blank pixels, as the generator does", "[camera]") {
    const CameraImage im = image(1, 1, 2, {1, 2});
    CHECK(href_rows(encode_camera_waveform(im, {CameraFormat::rgb888, true, 5}, "im")).size() == 6 * 4);
    CHECK(href_rows(encode_camera_waveform(im, {CameraFormat::rgb888, false, 5}, "im")).size() == 6 * 2);
}
