// The camera waveform that drives the parallel camera interface's pins: one
// row per time step of the testbench's camera model, in the `.csv` form the
// generator writes for its RTL simulation (izer/camera.py, `--input-csv`):
//
//     vsync,href,pclk,d
//     0,0,0,00
//     0,1,1,3f
//
// Every field is hexadecimal (run_test.sv reads the rows with "%H,%H,%H,%H"):
// VSYNC, HREF and PCLK are single pins (0 or 1), d the 12 data pins
// (PCIF_DATA_11..0; the generator's waveforms use the low 8). The first line is
// the header; run_test.sv skips it unread, we insist on it so that a headerless
// file does not lose its first row unnoticed. docs/camera.md.
#pragma once

#include <cstdint>
#include <istream>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace ai8x {

// A camera input that cannot be used: what() names the file (and line).
struct CameraInputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct CameraRow {
    bool vsync = false, href = false, pclk = false;
    uint16_t data = 0;  // PCIF_DATA_11..0
};

struct CameraWaveform {
    std::string source;  // file name for messages ("input.csv", or what it was made from)
    std::vector<CameraRow> rows;
    std::vector<uint32_t> lines;  // the source line of each row (empty when not read from text)

    // "input.csv:123" for row `index` (or "input.csv, row N" without lines).
    std::string where(std::size_t index) const;
};

constexpr uint16_t kCameraDataMask = 0xFFF;  // 12 data pins

// Parses the text of a waveform; `source` names it in errors. Throws
// CameraInputError naming source:line for a missing header, a row without
// four fields, a field that is not hexadecimal, a pin value other than 0/1 or
// data wider than 12 bits, and a file with no rows.
CameraWaveform parse_camera_csv(std::istream& text, const std::string& source);
CameraWaveform read_camera_csv(const std::string& path);

// Writes `wave` as the generator writes it (header, then "v,h,p,dd" with at
// least two lower-case hex digits of data).
void write_camera_csv(std::ostream& out, const CameraWaveform& wave);

}  // namespace ai8x
