// Pictures for `ai8xsim run --camera FILE`: a PNG (libpng) or a Netpbm
// PPM/PGM read as the bytes a camera would send for them. Colour images give 3
// channels (red, green, blue), grey ones 1; alpha is dropped (a camera sees no
// transparency), 16-bit samples keep their high byte, palettes are expanded.
#pragma once

#include <string>

#include "firmware/host/camera/camera_image.h"

namespace ai8x {

// By the file's content (PNG signature, or "P2"/"P3"/"P5"/"P6"). Throws
// CameraInputError naming the file for anything unreadable or of another kind.
CameraImage read_camera_image(const std::string& path);

// Whether the file's first bytes are a PNG or Netpbm signature (a waveform
// .csv is neither).
bool is_camera_image_file(const std::string& path);

}  // namespace ai8x
