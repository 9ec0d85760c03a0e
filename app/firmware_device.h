// Which device a generated firmware folder was made for. The generator writes
// chip-specific code (its register and memory addresses, and in the file
// header the command line with `--device NAME`); the run picks the matching
// bundled device description, and refuses an explicit one that disagrees.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tlm/device_config.h"

namespace ai8x {

struct FirmwareDevice {
    std::string device;    // a known description's name ("MAX78002"); empty when nothing identifies one
    std::string evidence;  // file and marker that decided it, for messages ("cnn.c: --device MAX78002")
};

// Every device description bundled next to the default one (configs/*.yaml),
// loaded; files that fail to load are skipped (the caller loads the one it
// uses and reports its problems then).
std::vector<DeviceConfig> bundled_device_configs();

// Reads the C sources of `dir` and decides among `known`. First marker: the
// generator's `--device NAME` in a source file's header comment; second: the
// address of quadrant 0's control register (registers.quadrant.base), which is
// written by every generated cnn.c and differs between the devices. A folder
// with both or neither kind of address for several devices is undecided.
FirmwareDevice detect_firmware_device(const std::string& dir, const std::vector<DeviceConfig>& known);

// The usual case, reading one description instead of all: the first source
// that names its device (`--device NAME`) names one whose bundled file is
// configs/NAME.yaml. Then the device and that description, exactly what
// detect_firmware_device over bundled_device_configs() would decide; empty
// otherwise (the caller then searches them all).
struct NamedDevice {
    FirmwareDevice device;
    DeviceConfig config;
};
std::optional<NamedDevice> device_named_by_firmware(const std::string& dir);

}  // namespace ai8x
