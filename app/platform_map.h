// The map a user reads before a debug session (`ai8xsim info`): the elaborated
// SystemC module tree of a Platform, each address window placed under the
// module it belongs to, memory windows split into their instances.
//
// Nothing here knows the accelerator's internal structure: the tree is read
// from the SystemC object hierarchy, the windows from Accelerator::windows()
// and the device file, and a window is placed by name (see describe_platform).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ai8x {

class Platform;

// One memory instance inside a window (a window may hold one or many).
struct MapInstance {
    uint64_t base = 0, size = 0;  // bus addresses occupied by its words
    uint32_t words = 0, word_bits = 0;
    std::string owner;  // the object that holds its storage, e.g. "cnn.q2.p37.tram" (may be empty)
    uint64_t storage_bytes() const { return (uint64_t(words) * word_bits + 7) / 8; }
};

struct MapWindow {
    enum class Kind { Registers, AcceleratorMemory, CpuMemory, Peripherals };
    std::string name;
    Kind kind = Kind::Registers;
    uint64_t base = 0, size = 0;
    int registers = -1;                  // register blocks: number of registers (-1 unknown)
    std::vector<MapInstance> instances;  // accelerator memories whose geometry is known
};

// A child object that is not a module: a socket, port or export.
struct MapPort {
    std::string name, kind;
};

struct MapModule {
    std::string name;  // hierarchical SystemC name ("accelerator", "cnn.q2.p37")
    std::string kind;  // sc_object::kind()
    std::vector<MapPort> ports;
    std::vector<MapWindow> windows;
    std::vector<MapModule> children;
};

// A wire between modules (tlm/wire.h): interrupts, clocks, power controls.
struct MapWire {
    std::string name;                  // the wire's own name ("cnn_clock_hz")
    std::string writer;                // the output port driving it ("soc.gcr.cnn_clock_hz")
    std::vector<std::string> readers;  // the input ports acting on it ("cnn.cnn_clock")
};

struct PlatformMap {
    std::string device, config_path;
    std::vector<MapModule> top;  // sc_get_top_level_objects(), in elaboration order
    std::vector<MapWire> wires;  // as the board bound them
};

// Reads the elaborated hierarchy of `platform` (call before sc_start) and
// places its windows: accelerator windows inside the accelerator (default: the
// accelerator itself), each SoC peripheral's registers in its module, CPU-side
// ones anywhere (default: the bus); and lists the board's wires.
PlatformMap describe_platform(Platform& platform);

// Adds `w` to the module below `scope` (a hierarchical name; "" = anywhere)
// whose name ends with the longest dotted prefix of w.name: "q2.p37.tram" goes
// to a module "...q2.p37.tram", else "...q2.p37", else "...q2"; failing all,
// to the module named `fallback` (dropped if there is none).
void place_window(std::vector<MapModule>& top, MapWindow w, const std::string& scope, const std::string& fallback);

const char* to_string(MapWindow::Kind k);
std::string render_text(const PlatformMap& map);
nlohmann::json render_json(const PlatformMap& map);

}  // namespace ai8x
