#include "app/platform_map.h"

#include <systemc>

#include "app/platform.h"

namespace ai8x {

namespace {

// The connection points a user binds or traces: sockets and signal ports. The
// objects a socket or a module creates for itself (the socket's internal
// sc_port/sc_export, payload event queues, processes) are left out.
bool is_connection_point(const std::string& kind) {
    return kind.find("socket") != std::string::npos || kind == "sc_in" || kind == "sc_out" || kind == "sc_inout";
}

MapModule read_module(const sc_core::sc_object& object) {
    MapModule m{object.name(), object.kind(), {}, {}, {}};
    for (const sc_core::sc_object* child : object.get_child_objects()) {
        if (dynamic_cast<const sc_core::sc_module*>(child))
            m.children.push_back(read_module(*child));
        else if (is_connection_point(child->kind()))
            m.ports.push_back({child->name(), child->kind()});
    }
    return m;
}

// Every module of `roots` and below, parents before children.
void flatten(std::vector<MapModule>& roots, std::vector<MapModule*>& out) {
    for (MapModule& m : roots) {
        out.push_back(&m);
        flatten(m.children, out);
    }
}

// `module_name` is `suffix` or ends with "." + `suffix`.
bool names(const std::string& module_name, const std::string& suffix) {
    if (module_name == suffix) return true;
    return module_name.size() > suffix.size() &&
           module_name.compare(module_name.size() - suffix.size(), suffix.size(), suffix) == 0 &&
           module_name[module_name.size() - suffix.size() - 1] == '.';
}

bool inside(const std::string& module_name, const std::string& scope) {
    return scope.empty() || module_name.rfind(scope + ".", 0) == 0;
}

enum class MemoryKind { None, DataSram, Tram, Kernel, Bias };

// The accelerator memory a window holds, judged by the last part of its name
// as the memory ports name them ("cnn.q1.tram").
MemoryKind memory_kind_of(const std::string& window) {
    const auto dot = window.rfind('.');
    const std::string kind = dot == std::string::npos ? window : window.substr(dot + 1);
    if (kind == "data_sram") return MemoryKind::DataSram;
    if (kind == "tram") return MemoryKind::Tram;
    if (kind == "kernel") return MemoryKind::Kernel;
    if (kind == "bias") return MemoryKind::Bias;
    return MemoryKind::None;
}

// Geometry of the accelerator memory a window holds; nullptr if none fits.
const ArrayGeometry* geometry_of(const std::string& window, const DeviceConfig& cfg) {
    switch (memory_kind_of(window)) {
        case MemoryKind::DataSram: return &cfg.data_sram;
        case MemoryKind::Tram: return &cfg.tram;
        case MemoryKind::Kernel: return &cfg.kernel_mem;
        case MemoryKind::Bias: return &cfg.bias_mem;
        case MemoryKind::None: break;
    }
    return nullptr;
}

// The instances a memory window spans: one every instance_stride bytes, each
// as many slots long as that instance has words, as many as fit in the window.
std::vector<MapInstance> instances_in(uint64_t base, uint64_t size, const ArrayGeometry& g) {
    const uint64_t span = uint64_t(g.words) * g.slot_bytes;
    if (span == 0 || size < span) return {};
    const uint64_t count = g.instance_stride == 0 ? 1 : (size - span) / g.instance_stride + 1;
    std::vector<MapInstance> out;
    for (uint64_t i = 0; i < count; ++i) {
        const uint32_t words = i < g.instances_per_quadrant ? g.words_of(uint32_t(i)) : g.words;
        out.push_back({base + i * g.instance_stride, uint64_t(words) * g.slot_bytes, words, g.word_bits, ""});
    }
    return out;
}

// Names of the objects owning the instances of `kind` (the module tree's view).
const std::vector<std::string>* owner_names(const std::string& window, const InstanceNames& names) {
    switch (memory_kind_of(window)) {
        case MemoryKind::DataSram: return &names.data_sram;
        case MemoryKind::Tram: return &names.tram;
        case MemoryKind::Kernel: return &names.kernel;
        case MemoryKind::Bias: return &names.bias;
        case MemoryKind::None: break;
    }
    return nullptr;
}

// Tells each instance of a quadrant's memory window which object holds it.
void name_owners(std::vector<MapInstance>& instances, const std::string& window, const Accelerator& accel) {
    const std::vector<std::string>* names = owner_names(window, accel.state().names);
    if (!names) return;
    for (uint32_t q = 0; q < accel.quadrant_count(); ++q) {
        const std::string quadrant = accel.state().names.quadrant.at(q) + ".";
        if (window.rfind(quadrant, 0) != 0) continue;
        for (std::size_t i = 0; i < instances.size(); ++i) {
            const std::size_t global = q * instances.size() + i;
            if (global < names->size()) instances[i].owner = (*names)[global];
        }
    }
}

}  // namespace

void place_window(std::vector<MapModule>& top, MapWindow w, const std::string& scope, const std::string& fallback) {
    std::vector<MapModule*> all;
    flatten(top, all);
    for (std::string prefix = w.name; !prefix.empty();) {
        for (MapModule* m : all)
            if (inside(m->name, scope) && names(m->name, prefix)) {
                m->windows.push_back(std::move(w));
                return;
            }
        const auto dot = prefix.rfind('.');
        prefix = dot == std::string::npos ? std::string() : prefix.substr(0, dot);
    }
    for (MapModule* m : all)
        if (m->name == fallback) {
            m->windows.push_back(std::move(w));
            return;
        }
}

PlatformMap describe_platform(Platform& platform) {
    const DeviceConfig& cfg = platform.config();
    PlatformMap map;
    map.device = cfg.name;
    map.config_path = cfg.source_path;
    for (const sc_core::sc_object* o : sc_core::sc_get_top_level_objects())
        if (dynamic_cast<const sc_core::sc_module*>(o)) map.top.push_back(read_module(*o));

    const std::string bus = platform.bus().name();
    for (const CpuRegion& r : cfg.cpu_regions)
        place_window(map.top, {r.name, MapWindow::Kind::CpuMemory, r.base, r.size, -1, {}}, "", bus);
    place_window(map.top,
                 {"peripherals", MapWindow::Kind::Peripherals, cfg.peripheral_base, cfg.peripheral_size, -1, {}}, "",
                 bus);

    for (Peripheral* p : platform.peripherals().peripherals())
        place_window(map.top,
                     {p->name(), MapWindow::Kind::Registers, p->base(), p->size(), int(p->registers().size()), {}}, "",
                     bus);
    for (const Platform::WireLink& w : platform.wiring()) map.wires.push_back({w.wire, w.writer, w.readers});

    const Accelerator& accel = platform.accelerator();
    for (const AddressWindow& a : accel.windows()) {
        MapWindow w{a.name, a.is_register_block ? MapWindow::Kind::Registers : MapWindow::Kind::AcceleratorMemory,
                    a.base, a.size,
                    -1,     {}};
        if (a.is_register_block) {
            if (const RegisterBank* b = accel.register_bank(a.name))
                w.registers = static_cast<int>(b->registers().size());
        } else if (const ArrayGeometry* g = geometry_of(a.name, cfg)) {
            w.instances = instances_in(a.base, a.size, *g);
            name_owners(w.instances, a.name, accel);
        }
        place_window(map.top, std::move(w), accel.name(), accel.name());
    }
    return map;
}

const char* to_string(MapWindow::Kind k) {
    switch (k) {
        case MapWindow::Kind::Registers: return "registers";
        case MapWindow::Kind::AcceleratorMemory: return "memory";
        case MapWindow::Kind::CpuMemory: return "cpu_memory";
        case MapWindow::Kind::Peripherals: return "peripherals";
    }
    return "?";
}

}  // namespace ai8x
