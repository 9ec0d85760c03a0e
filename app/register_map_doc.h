// docs/register-map.md, generated: the hand-written prose of
// docs/register-map.template.md with its {{...}} markers replaced by tables
// rendered from the device description (blocks, and every register with every
// field). tools/regdoc.cpp (ai8xsim-regdoc) writes it; a unit test fails when
// the committed document differs from what the description renders.
#pragma once

#include <string>

#include "tlm/device_config.h"

namespace ai8x {

// The bundled template (docs/register-map.template.md in the source tree).
std::string default_register_map_template_path();

// The committed document (docs/register-map.md in the source tree).
std::string default_register_map_path();

// Renders the document. Markers: {{device}}, {{config}}, {{blocks}},
// {{quadrant_registers}}, {{layer_registers}}, {{fifo_registers}},
// {{aon_registers}}. Throws std::invalid_argument for any other marker.
std::string render_register_map(const DeviceConfig& cfg, const std::string& template_text);

// Reads the bundled template and renders it for `cfg`.
std::string render_register_map(const DeviceConfig& cfg);

// Empty when `committed` equals `rendered`; otherwise a message naming the
// first line that differs and the command that regenerates `committed_path`.
std::string register_map_difference(const std::string& rendered, const std::string& committed,
                                    const std::string& committed_path);

}  // namespace ai8x
