// Register description: lookups, and the loader of the device file's
// register_map section with its checks (every problem is a ConfigError naming
// the file and the key, e.g. "register_map.layer.LREG_ONED.fields.EWISE_FUNC").
#include "tlm/register_description.h"

#include <algorithm>
#include <map>
#include <set>

#include "tlm/device_config.h"
#include "tlm/yaml_reader.h"

namespace ai8x {

const char* to_string(RegAccess a) {
    switch (a) {
        case RegAccess::RW: return "RW";
        case RegAccess::RO: return "RO";
        case RegAccess::WO: return "WO";
        case RegAccess::W1C: return "W1C";
    }
    return "?";
}

const FieldDescription* RegisterDescription::find(const std::string& field_name) const {
    for (const FieldDescription& f : fields)
        if (f.name == field_name) return &f;
    return nullptr;
}

namespace {

const RegisterDescription& find_in(const RegisterMap& map, const std::vector<RegisterDescription>& group,
                                   const char* group_name, const std::string& name) {
    for (const RegisterDescription& r : group)
        if (r.name == name) return r;
    throw ConfigError(map.source_path + ": register_map." + group_name + ": no register " + name +
                      " (the model needs it)");
}

}  // namespace

const RegisterDescription* PeripheralDescription::find(const std::string& register_name) const {
    for (const RegisterDescription& r : registers)
        if (r.name == register_name) return &r;
    return nullptr;
}

const PeripheralDescription* RegisterMap::find_peripheral(const std::string& name) const {
    for (const PeripheralDescription& p : peripherals)
        if (p.name == name) return &p;
    return nullptr;
}

const PeripheralDescription* RegisterMap::peripheral_of_instance(const std::string& instance) const {
    for (const PeripheralDescription& p : peripherals)
        for (const PeripheralInstance& i : p.instances)
            if (i.name == instance) return &p;
    return nullptr;
}

const RegisterDescription& RegisterMap::quadrant_register(const std::string& name) const {
    return find_in(*this, quadrant, "quadrant", name);
}
const RegisterDescription& RegisterMap::layer_register(const std::string& name) const {
    return find_in(*this, layer, "layer", name);
}
const RegisterDescription* RegisterMap::find_layer_register(const std::string& name) const {
    for (const RegisterDescription& r : layer)
        if (r.name == name) return &r;
    return nullptr;
}
const RegisterDescription& RegisterMap::fifo_register(const std::string& name) const {
    return find_in(*this, fifo, "fifo", name);
}
const RegisterDescription& RegisterMap::aon_register(const std::string& name) const {
    return find_in(*this, aon, "aon", name);
}

RegField RegisterMap::field(const RegisterDescription& reg, const std::string& field_name) const {
    if (const FieldDescription* f = reg.find(field_name)) return f->field();
    throw ConfigError(source_path + ": register_map: register " + reg.name + " has no field " + field_name +
                      " (the model needs it)");
}

const RegisterDescription* RegisterMap::find_register(const char* group, const char* name, bool required) const {
    const std::string g = group;
    const std::vector<RegisterDescription>& list = g == "quadrant" ? quadrant
                                                   : g == "layer"  ? layer
                                                   : g == "fifo"   ? fifo
                                                                   : aon;
    for (const RegisterDescription& r : list)
        if (r.name == name) return &r;
    if (required)
        throw ConfigError(source_path + ": register_map." + g + ": no register " + name + " (the model needs it)");
    return nullptr;
}

RegField RegisterMap::bind(const RegisterDescription* reg, const char* group, const char* reg_name, const char* field,
                           bool required) const {
    if (reg)
        if (const FieldDescription* f = reg->find(field)) return f->field();
    if (required)
        throw ConfigError(source_path + ": register_map." + group + "." + reg_name + ": no field " + field +
                          " (the model needs it)");
    return RegField{};
}

std::string RegisterMap::layer_register_name(unsigned slot) const {
    for (const RegisterDescription& r : layer)
        if (r.has_slot && r.slot == slot) return r.name;
    return "LREG_" + std::to_string(slot);
}

namespace {

// "HI:LO" or "N" -> lsb and width.
void parse_bits(const Reader& r, const YAML::Node& n, const std::string& key, FieldDescription& f) {
    const std::string text = n.IsScalar() ? n.Scalar() : std::string();
    const auto number = [&](const std::string& s) -> unsigned {
        if (s.empty() || s.size() > 3 || s.find_first_not_of("0123456789") != std::string::npos)
            r.fail(key, "expected a bit range \"HI:LO\" or a bit number, got '" + text + "'", &n);
        return static_cast<unsigned>(std::stoul(s));
    };
    const std::size_t colon = text.find(':');
    const unsigned hi = number(text.substr(0, colon));
    const unsigned lo = colon == std::string::npos ? hi : number(text.substr(colon + 1));
    if (hi < lo) r.fail(key, "bit range '" + text + "' has its high bit below its low bit", &n);
    if (hi > 31) r.fail(key, "bit range '" + text + "' extends beyond bit 31", &n);
    f.lsb = lo;
    f.width = hi - lo + 1;
}

RegAccess parse_access(const Reader& r, const YAML::Node& n, const std::string& path) {
    const std::string a = r.str(n, path, "access");
    if (a == "RW") return RegAccess::RW;
    if (a == "RO") return RegAccess::RO;
    if (a == "WO") return RegAccess::WO;
    if (a == "W1C") return RegAccess::W1C;
    r.fail(path + ".access", "expected RW, RO, WO or W1C, got '" + a + "'", &n);
}

void read_fields(const Reader& r, const YAML::Node& fields, const std::string& path, bool whole_reset,
                 RegisterDescription& d);

// Where a register group lives: the accelerator's per-layer kinds, its other
// blocks, or a SoC peripheral (whose registers may leave their fields out).
enum class Group { PerLayer, Block, Peripheral };

RegisterDescription read_register(const Reader& r, const YAML::Node& n, const std::string& group_path, size_t index,
                                  Group group) {
    const bool per_layer = group == Group::PerLayer;
    const std::string at = group_path + "[" + std::to_string(index) + "]";
    RegisterDescription d;
    d.name = r.str(n, at, "name");
    const std::string path = group_path + "." + d.name;
    if (per_layer) {
        // A kind sits in a slot of the per-layer banks, or (registers that only
        // some layers have, such as the MAX78002 streaming registers) at its own
        // offset with its own step between layers.
        if (n["slot"] && n["offset"]) r.fail(path, "give either slot or offset, not both", &n);
        if (n["offset"]) {
            d.has_slot = false;
            d.offset = r.u64(n, path, "offset");
            if (d.offset % 4) r.fail(path + ".offset", "must be a multiple of 4", &n);
            d.layer_step = r.positive(n, path, "layer_step");
            if (d.layer_step % 4) r.fail(path + ".layer_step", "must be a multiple of 4", &n);
        } else {
            d.slot = r.u32(n, path, "slot");
        }
        if (n["layers"]) d.layers = static_cast<uint32_t>(r.positive(n, path, "layers"));
        if (n["access"]) d.access = parse_access(r, n, path);
    } else {
        d.offset = r.u64(n, path, "offset");
        if (d.offset % 4) r.fail(path + ".offset", "must be a multiple of 4", &n);
        d.access = parse_access(r, n, path);
        if (n["count"]) {
            d.count = static_cast<uint32_t>(r.positive(n, path, "count"));
            d.step = r.positive(n, path, "step");
            if (d.step % 4) r.fail(path + ".step", "must be a multiple of 4", &n);
        }
    }
    d.meaning = r.str(n, path, "meaning");
    // The whole word's reset; its fields' resets default to their part of it.
    if (n["reset"]) d.reset = r.u32(n, path, "reset");
    // A register whose bits the model gives no meaning may leave its fields out (not a per-layer kind).
    if (group != Group::PerLayer && !n["fields"]) return d;
    read_fields(r, r.need(n, path, "fields"), path, bool(n["reset"]), d);
    return d;
}

// `whole_reset`: the register gave its reset as a word; a field's own reset must then agree with it.
void read_fields(const Reader& r, const YAML::Node& fields, const std::string& path, bool whole_reset,
                 RegisterDescription& d) {
    if (!fields.IsSequence() || fields.size() == 0) r.fail(path + ".fields", "expected a non-empty list", &fields);
    uint32_t used = 0;  // bits claimed by the fields read so far
    for (size_t i = 0; i < fields.size(); ++i) {
        const YAML::Node fn = fields[i];
        FieldDescription f;
        f.name = r.str(fn, path + ".fields[" + std::to_string(i) + "]", "name");
        const std::string fpath = path + ".fields." + f.name;
        if (d.find(f.name)) r.fail(fpath, "duplicate field name", &fn);
        parse_bits(r, r.need(fn, fpath, "bits"), fpath + ".bits", f);
        f.reset = f.field().get(d.reset);
        if (fn["reset"]) {
            const uint32_t given = r.u32(fn, fpath, "reset");
            if (given > f.field().get(~0u)) r.fail(fpath + ".reset", "does not fit the field's width", &fn);
            if (whole_reset && given != f.reset) r.fail(fpath + ".reset", "disagrees with the register's reset", &fn);
            f.reset = given;
        }
        f.meaning = r.str(fn, fpath, "meaning");
        if (fn["key"]) {
            f.keyed = true;
            f.key = r.u32(fn, fpath, "key");
            if (f.key > f.field().get(~0u)) r.fail(fpath + ".key", "does not fit the field's width", &fn);
        }
        if (used & f.field().mask())
            for (const FieldDescription& o : d.fields)
                if (o.field().mask() & f.field().mask()) r.fail(fpath + ".bits", "overlaps field " + o.name, &fn);
        used |= f.field().mask();
        d.reset = f.field().with(d.reset, f.reset);
        d.fields.push_back(std::move(f));
    }
    // Datasheet order, whatever order a base and its overlay gave them in.
    std::stable_sort(d.fields.begin(), d.fields.end(),
                     [](const FieldDescription& a, const FieldDescription& b) { return a.lsb < b.lsb; });
}

std::vector<RegisterDescription> read_registers(const Reader& r, const YAML::Node& n, const std::string& path,
                                                Group group) {
    if (!n.IsSequence() || n.size() == 0) r.fail(path, "expected a non-empty list of registers", &n);
    std::vector<RegisterDescription> out;
    for (size_t i = 0; i < n.size(); ++i) out.push_back(read_register(r, n[i], path, i, group));
    return out;
}

std::vector<RegisterDescription> read_group(const Reader& r, const YAML::Node& map, const std::string& group,
                                            bool per_layer) {
    return read_registers(r, r.need(map, "register_map", group), "register_map." + group,
                          per_layer ? Group::PerLayer : Group::Block);
}

// Registers of a block must lie inside it and must not share a word.
void check_block(const Reader& r, const YAML::Node& at, const std::vector<RegisterDescription>& regs,
                 const std::string& path, uint64_t block_size) {
    std::map<uint64_t, std::string> words;
    for (const RegisterDescription& d : regs)
        for (uint32_t i = 0; i < d.count; ++i) {
            const uint64_t offset = d.offset + i * d.step;
            const std::string key = path + "." + d.name;
            if (offset + 4 > block_size) r.fail(key + ".offset", "lies beyond the register block's size", &at);
            if (auto it = words.find(offset); it != words.end())
                r.fail(key + ".offset", "same address as " + it->second, &at);
            words[offset] = d.name;
        }
}

PeripheralInstance read_instance(const Reader& r, const YAML::Node& n, const std::string& path) {
    PeripheralInstance i;
    i.base = r.u64(n, path, "base");
    if (i.base % 4) r.fail(path + ".base", "must be a multiple of 4", &n);
    if (n["interrupt"]) i.interrupt = static_cast<int>(r.u32(n, path, "interrupt"));
    return i;
}

// One peripheral kind: a single block (base:) or several copies (instances:).
PeripheralDescription read_peripheral(const Reader& r, const YAML::Node& n, size_t index) {
    PeripheralDescription p;
    p.name = r.str(n, "peripherals[" + std::to_string(index) + "]", "name");
    const std::string path = "peripherals." + p.name;
    p.size = r.positive(n, path, "size");
    p.meaning = r.str(n, path, "meaning");
    if (n["bus"]) {
        const std::string bus = r.str(n, path, "bus");
        if (bus != "core" && bus != "soc") r.fail(path + ".bus", "must be soc (the default) or core", &n);
        p.core_bus = bus == "core";
    }
    if (n["instances"] && n["base"]) r.fail(path, "give either base or instances, not both", &n);
    if (const YAML::Node list = n["instances"]) {
        if (!list.IsSequence() || list.size() == 0) r.fail(path + ".instances", "expected a non-empty list", &list);
        for (size_t i = 0; i < list.size(); ++i) {
            PeripheralInstance inst = read_instance(r, list[i], path + ".instances[" + std::to_string(i) + "]");
            inst.name = r.str(list[i], path + ".instances[" + std::to_string(i) + "]", "name");
            p.instances.push_back(inst);
        }
    } else {
        p.instances.push_back(read_instance(r, n, path));
        p.instances.back().name = p.name;
    }
    p.registers = read_registers(r, r.need(n, path, "registers"), path + ".registers", Group::Peripheral);
    check_block(r, n, p.registers, path + ".registers", p.size);
    return p;
}

}  // namespace

std::vector<PeripheralDescription> read_peripherals(const Reader& r, const YAML::Node& root, uint64_t window_base,
                                                    uint64_t window_size) {
    const YAML::Node list = r.need(root, "", "peripherals");
    if (!list.IsSequence() || list.size() == 0) r.fail("peripherals", "expected a non-empty list", &list);
    std::vector<PeripheralDescription> out;
    std::set<std::string> kinds, instances;  // one object per name
    for (size_t i = 0; i < list.size(); ++i) {
        const YAML::Node item = list[i];
        out.push_back(read_peripheral(r, item, i));
        const PeripheralDescription& p = out.back();
        if (!kinds.insert(p.name).second) r.fail("peripherals." + p.name, "duplicate peripheral name", &item);
        for (const PeripheralInstance& inst : p.instances) {
            const std::string key = "peripherals." + p.name + (inst.name == p.name ? "" : "." + inst.name);
            if (!instances.insert(inst.name).second) r.fail(key, "duplicate instance name", &item);
            const bool in_window = inst.base >= window_base && inst.base + p.size <= window_base + window_size;
            if (!p.core_bus && !in_window) r.fail(key + ".base", "lies outside cpu.peripherals", &item);
            for (const PeripheralDescription& o : out)
                for (const PeripheralInstance& other : o.instances)
                    if (&other != &inst && inst.base < other.base + o.size && other.base < inst.base + p.size)
                        r.fail(key + ".base", "overlaps " + other.name, &item);
        }
    }
    return out;
}

RegisterMap read_register_map(const Reader& r, const YAML::Node& root, const DeviceConfig& c) {
    const YAML::Node map = r.need(root, "", "register_map");
    RegisterMap m;
    m.source_path = c.source_path;
    m.quadrant = read_group(r, map, "quadrant", false);
    std::stable_sort(m.quadrant.begin(), m.quadrant.end(),
                     [](const RegisterDescription& a, const RegisterDescription& b) { return a.offset < b.offset; });
    m.layer = read_group(r, map, "layer", true);
    m.fifo = read_group(r, map, "fifo", false);
    m.aon = read_group(r, map, "aon", false);

    // One name for one register anywhere in the map (messages and documents use names).
    std::map<std::string, std::string> names;
    for (const auto* group : {&m.quadrant, &m.layer, &m.fifo, &m.aon})
        for (const RegisterDescription& d : *group) {
            const std::string group_name = group == &m.quadrant ? "quadrant"
                                           : group == &m.layer  ? "layer"
                                           : group == &m.fifo   ? "fifo"
                                                                : "aon";
            if (names.count(d.name))
                r.fail("register_map." + group_name + "." + d.name,
                       "duplicate register name (also in register_map." + names[d.name] + ")", &map);
            names[d.name] = group_name;
        }

    // Per-layer kinds: each slot once, inside the configured slot count; they repeat per layer.
    std::map<uint32_t, std::string> slots;
    uint32_t next_free_slot = c.layer_register_count;  // kinds placed by offset are numbered after the slots
    for (RegisterDescription& d : m.layer) {
        const std::string key = "register_map.layer." + d.name;
        if (d.layers == 0) d.layers = c.max_layers;
        if (d.layers > c.max_layers)
            r.fail(key + ".layers", "exceeds accelerator.max_layers (" + std::to_string(c.max_layers) + ")", &map);
        if (!d.has_slot) {
            d.slot = next_free_slot++;
            continue;
        }
        if (d.slot >= c.layer_register_count)
            r.fail(key + ".slot",
                   "beyond registers.layer_registers.count (" + std::to_string(c.layer_register_count) + ")", &map);
        if (slots.count(d.slot)) r.fail(key + ".slot", "slot already used by " + slots[d.slot], &map);
        slots[d.slot] = d.name;
        d.offset = c.layer_register_offset + uint64_t(d.slot) * c.layer_register_stride;
        d.layer_step = c.layer_register_layer_stride;
    }
    std::sort(m.layer.begin(), m.layer.end(),
              [](const RegisterDescription& a, const RegisterDescription& b) { return a.slot < b.slot; });

    // Every word of every layer's copy once, inside the quadrant block; global
    // registers may use a per-layer word no kind uses (MAX78000 REG_IFRM), no other.
    check_block(r, map, m.quadrant, "register_map.quadrant", c.quadrant_regs.size);
    std::map<uint64_t, std::string> words;
    for (const RegisterDescription& d : m.quadrant) words[d.offset] = d.name;
    for (const RegisterDescription& d : m.layer)
        for (uint32_t layer = 0; layer < d.layers; ++layer) {
            const uint64_t offset = RegisterMap::layer_offset(d, layer);
            const std::string key = "register_map.layer." + d.name;
            if (offset + 4 > c.quadrant_regs.size)
                r.fail(key, "layer " + std::to_string(layer) + "'s copy lies beyond registers.quadrant.size", &map);
            if (auto it = words.find(offset); it != words.end())
                r.fail(key, "layer " + std::to_string(layer) + "'s copy has the address of " + it->second, &map);
            words[offset] = d.name + " of layer " + std::to_string(layer);
        }
    check_block(r, map, m.fifo, "register_map.fifo", c.fifo_regs.size);
    check_block(r, map, m.aon, "register_map.aon", c.aon_regs.size);
    for (const RegisterDescription& d : m.fifo)
        if (d.count > 1 && d.count != c.fifo_count)
            r.fail("register_map.fifo." + d.name + ".count",
                   "must equal accelerator.fifo_count (" + std::to_string(c.fifo_count) + "): one register per FIFO",
                   &map);
    return m;
}

}  // namespace ai8x
