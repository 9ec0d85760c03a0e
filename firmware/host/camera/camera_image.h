// An image as a camera sends it, and the waveform that carries it to the
// parallel camera interface: the same rows the generator writes for its RTL
// simulation (izer/load.py with izer/camera.py, `--input-csv-format`), so an
// image, a generator's sample input and a generated input.csv are
// interchangeable camera inputs. docs/camera.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "firmware/host/camera/camera_waveform.h"

namespace ai8x {

// Channel-first bytes as they leave the sensor: value(c, row, col) is what the
// data pins carry for that channel of that pixel (the generator sends its
// signed sample values as their two's-complement byte).
struct CameraImage {
    int channels = 0, height = 0, width = 0;
    std::vector<uint8_t> bytes;  // [c][row][col]

    uint8_t value(int c, int row, int col) const { return bytes[(std::size_t(c) * height + row) * width + col]; }
    std::string shape() const;  // "3x8x32" (channels x height x width, as the generator prints it)
};

// The pixel format on the wire (--input-csv-format): 888 sends one byte per
// channel, 555 and 565 one 16-bit word per pixel, high byte first (3 channels only).
enum class CameraFormat { rgb888, rgb555, rgb565 };

// 888, 555 or 565; CameraInputError otherwise (`context` names the source).
CameraFormat camera_format_from_number(int number, const std::string& context);
int camera_format_number(CameraFormat format);

struct CameraEncoding {
    CameraFormat format = CameraFormat::rgb888;
    bool chw = false;  // the network takes CHW input: rows are padded (the generator's rule, see the .cpp)
    int retrace = 5;   // idle pixel times after each row (--input-csv-retrace; the generator's default)
};

// The rows the generator would write for `image`: VSYNC lead-in, pulse and
// gap, each image row as HREF-high pixel times with the retrace after it, a
// final idle stretch. Throws CameraInputError when 555/565 is asked for an
// image without exactly 3 channels.
CameraWaveform encode_camera_waveform(const CameraImage& image, const CameraEncoding& encoding,
                                      const std::string& source);

}  // namespace ai8x
