// What a firmware folder asks of the camera, and the waveform a run feeds it.
//
// The generator's camera firmware (`--input-csv`) reads the parallel camera
// interface and names its stream in its own header comment (the generator's
// command line: --input-csv NAME, --input-csv-format, --input-csv-retrace,
// --input-csv-period, --input-sync, --input-pix-clk) and in load_input()'s
// comment ("// Data input: HWC 3x8x32"). The waveform is, in this order:
// the --camera file (a .csv waveform, or a PNG/PPM picture encoded as the
// generator would), the folder's own NAME (input.csv, which the generator
// writes beside the firmware), or the generator's sample input as its log
// (log.txt.gz) prints it, encoded the same way. docs/camera.md.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "firmware/host/camera/camera_image.h"
#include "firmware/host/camera/camera_stream.h"

namespace ai8x {

// The camera options of the generator's command line (its defaults where absent).
struct GeneratorCameraArgs {
    std::string csv_name;   // --input-csv; empty: the firmware was not generated for the camera
    int format = 888;       // --input-csv-format
    int retrace = 5;        // --input-csv-retrace
    double period_ns = 80;  // --input-csv-period
    uint32_t pix_clk = 9;   // --input-pix-clk
    bool sync = false;      // --input-sync
};

// From a generator command line ("ai8xize.py ... --input-csv input.csv ...").
GeneratorCameraArgs parse_generator_camera_args(const std::string& command_line);

// load_input()'s "// Data input: HWC 3x8x32" (or CHW).
struct CameraInputShape {
    bool chw = false;
    int channels = 0, height = 0, width = 0;
    std::string shape() const;  // "3x8x32"
};
std::optional<CameraInputShape> parse_data_input_comment(const std::string& source_text);

// What the C sources of a folder say about the camera.
struct CameraRequest {
    bool uses_camera = false;  // they include pcif_defines_af2.h or touch MXC_PCIF / MXC_CAMERAIF0
    std::string evidence;      // "main.c: includes pcif_defines_af2.h"
    GeneratorCameraArgs args;  // from the first source with a generator command line
    std::optional<CameraInputShape> input;
};
CameraRequest read_camera_request(const std::string& dir);

// The generator's sample input as its log prints it for layer 0
// ("3x8x32 INPUT DATA:" then one array per channel), as camera bytes. Throws
// CameraInputError naming the log (and line) when it has none or it is cut.
CameraImage read_generator_log_input(const std::string& log_path);
CameraImage parse_generator_log_input(const std::string& text, const std::string& source);

// The waveform and pace of one run's camera.
struct CameraFeed {
    CameraWaveform waveform;
    CameraTiming timing;  // sync_clock_hz left for the board (configs)
    std::string origin;   // for the console and the JSON: "input.csv", "photo.png (565)", ...
};

// The feed for a run of `dir` whose firmware made `request`. `camera_file`:
// --camera (empty: none); `period_ns`: --camera-period (0: the folder's).
// Throws CameraInputError when nothing can feed the camera or an input is
// unusable (a picture of another size than the network's input, a malformed
// row, ...), naming the file.
CameraFeed camera_feed_for_run(const std::string& dir, const CameraRequest& request, const std::string& camera_file,
                               double period_ns);

}  // namespace ai8x
