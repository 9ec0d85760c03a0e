// ai8xsim-reggen: generates the C++ names of every register and field of a
// device family from its description, so that a field is spelled once in the
// repository (in the YAML). The build runs it (CMakeLists.txt); its output is
// never committed.
//
//   ai8xsim-reggen OUT_DIR BASE.yaml [DEVICE.yaml...]
//
// It loads every device of the family (the base first, then the files laid
// over it) and writes, into OUT_DIR/registers/ (a file only when its text
// changed, so an unchanged description rebuilds nothing):
//   cnn.h, cnn.cpp  the accelerator: LayerRegisterKind (the index each per-layer
//                   kind is stored under), QuadrantRegister (the same for the
//                   quadrant's global registers) and CnnFields, one struct per
//                   register with a RegField per field, bound by name to a
//                   loaded description;
//   soc.h           the SoC peripherals: per kind a namespace with one
//                   PeripheralRegister type per register, naming its fields.
// Names come from the family; bit positions from the description loaded at run
// time (`run --config FILE`). A register or field that every device of the
// family has is required: a description without it is refused, naming the
// file. One that only some devices have is optional (absent: width 0).
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tlm/device_config.h"

// The tlm library pulls in libsystemc, which references sc_main.
extern "C" int sc_main(int, char**) { return 2; }

namespace {

using namespace ai8x;

struct FieldEntry {
    std::string name, meaning;
    unsigned devices = 0;  // how many devices of the family have it
};

struct RegisterEntry {
    std::string name, meaning;
    unsigned devices = 0;
    std::vector<FieldEntry> fields;
};

// One register group (an accelerator block or a peripheral kind) over the family.
struct Group {
    std::string name, meaning;
    unsigned devices = 0;
    std::vector<RegisterEntry> registers;
};

template <class T>
T& entry(std::vector<T>& list, const std::string& name) {
    for (T& e : list)
        if (e.name == name) return e;
    list.push_back(T{});
    list.back().name = name;
    return list.back();
}

void add(Group& g, const std::vector<RegisterDescription>& regs, const std::string& file) {
    ++g.devices;
    for (const RegisterDescription& d : regs) {
        // A C++ member cannot share its class's name (the field becomes a member of the register's type).
        if (d.find(d.name))
            throw ConfigError(file + ": " + g.name + "." + d.name +
                              ": a field named like its register cannot be given a "
                              "C++ name; rename the field");
        RegisterEntry& r = entry(g.registers, d.name);
        if (r.meaning.empty()) r.meaning = d.meaning;
        ++r.devices;
        for (const FieldDescription& f : d.fields) {
            FieldEntry& fe = entry(r.fields, f.name);
            if (fe.meaning.empty()) fe.meaning = f.meaning;
            ++fe.devices;
        }
    }
}

struct Family {
    std::vector<std::string> files;
    unsigned devices = 0;
    Group quadrant{"quadrant", "", 0, {}}, layer{"layer", "", 0, {}}, fifo{"fifo", "", 0, {}}, aon{"aon", "", 0, {}};
    std::vector<Group> peripherals;
    std::map<std::string, unsigned> base_slots;  // per-layer kind -> its slot on the base device
};

Family read_family(const std::vector<std::string>& files) {
    Family fam;
    fam.files = files;
    for (const std::string& path : files) {
        const DeviceConfig cfg = load_device_config(path);
        const RegisterMap& m = *cfg.registers;
        add(fam.quadrant, m.quadrant, path);
        add(fam.layer, m.layer, path);
        add(fam.fifo, m.fifo, path);
        add(fam.aon, m.aon, path);
        for (const PeripheralDescription& p : m.peripherals) {
            Group& g = entry(fam.peripherals, p.name);
            if (g.meaning.empty()) g.meaning = p.meaning;
            add(g, p.registers, path);
        }
        if (fam.devices++ == 0)
            for (const RegisterDescription& d : m.layer)
                if (d.has_slot) fam.base_slots[d.name] = d.slot;
    }
    return fam;
}

// A C++ identifier for a datasheet name ("2D_CONV" -> "F_2D_CONV").
std::string ident(const std::string& name) {
    return std::isdigit(static_cast<unsigned char>(name[0])) ? "F_" + name : name;
}

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string comment(const std::string& meaning) {
    std::string out;
    for (char c : meaning) out += c == '\n' ? ' ' : c;
    return out;
}

const char* required(unsigned devices, unsigned family) { return devices == family ? "true" : "false"; }

std::string header_banner(const Family& fam) {
    std::ostringstream os;
    os << "// Generated by ai8xsim-reggen (tools/reggen.cpp) from";
    for (const std::string& f : fam.files) os << ' ' << f.substr(f.rfind('/') + 1);
    os << ".\n// Edit the device description, not this file.\n";
    return os.str();
}

// The per-layer kinds: the base device's kinds at their slot (so that code may
// address the base's layer registers as offset + kind * stride), the others after.
std::vector<std::string> layer_kinds(const Family& fam) {
    std::vector<std::string> kinds;
    for (const auto& [name, slot] : fam.base_slots) {
        if (kinds.size() <= slot) kinds.resize(slot + 1);
        kinds[slot] = name;
    }
    for (const RegisterEntry& r : fam.layer.registers)
        if (!fam.base_slots.count(r.name)) kinds.push_back(r.name);
    return kinds;
}

void emit_field_structs(std::ostream& os, const Group& g) {
    os << "namespace " << g.name << " {\n";
    for (const RegisterEntry& r : g.registers) {
        os << "// " << r.name << ": " << comment(r.meaning) << "\nstruct " << ident(r.name) << " {\n";
        for (const FieldEntry& f : r.fields)
            os << "    RegField " << ident(f.name) << ";  // " << comment(f.meaning) << "\n";
        os << "};\n";
    }
    os << "}  // namespace " << g.name << "\n\n";
}

// The quadrant's global registers, numbered over the family (a register only
// some devices have keeps its number on the others, where nothing maps it).
void emit_quadrant_register_index(std::ostream& os, const Family& fam) {
    os << "// The quadrant's global registers over the family: the index\n"
       << "// QuadrantRegisters::global() stores each under.\nenum class QuadrantRegister : unsigned {\n";
    for (std::size_t i = 0; i < fam.quadrant.registers.size(); ++i)
        os << "    " << ident(fam.quadrant.registers[i].name) << " = " << i << ",\n";
    os << "};\nconstexpr unsigned kQuadrantRegisters = " << fam.quadrant.registers.size() << ";\n\n"
       << "// The name of `r` (\"REG_CTL\"), nullptr for a number no register has.\n"
       << "const char* quadrant_register_name(QuadrantRegister r);\n\n";
}

std::string cnn_header(const Family& fam) {
    std::ostringstream os;
    os << header_banner(fam) << "#pragma once\n\n#include \"tlm/register_description.h\"\n\nnamespace ai8x {\n\n"
       << "// Per-layer register kinds: the index the model stores each kind under\n"
       << "// (QuadrantRegisters::lreg[kind]); an index without a name is a slot no kind uses.\n"
       << "enum LayerRegisterKind : unsigned {\n";
    const std::vector<std::string> kinds = layer_kinds(fam);
    for (std::size_t k = 0; k < kinds.size(); ++k)
        if (!kinds[k].empty()) os << "    " << kinds[k] << " = " << k << ",\n";
    os << "    kLayerRegisterKinds = " << kinds.size() << "\n};\n\n"
       << "// The name of kind `kind` (\"LREG_RCNT\"), nullptr for an index no kind has.\n"
       << "const char* layer_register_kind_name(unsigned kind);\n\n";
    emit_quadrant_register_index(os, fam);
    os << "}  // namespace ai8x\n\nnamespace ai8x::regs {\n\n";
    for (const Group* g : {&fam.quadrant, &fam.layer, &fam.fifo, &fam.aon}) emit_field_structs(os, *g);
    os << "// Every field of the accelerator's registers, bound by name to a loaded\n"
       << "// description: a required field it lacks is a ConfigError naming the file,\n"
       << "// an optional one (only some devices have it) has width 0.\nstruct CnnFields {\n";
    for (const Group* g : {&fam.quadrant, &fam.layer, &fam.fifo, &fam.aon})
        for (const RegisterEntry& r : g->registers)
            os << "    " << g->name << "::" << ident(r.name) << " " << ident(r.name) << ";\n";
    os << "\n    explicit CnnFields(const RegisterMap& map);\n};\n\n}  // namespace ai8x::regs\n";
    return os.str();
}

void emit_binding(std::ostream& os, const Group& g, unsigned family) {
    for (const RegisterEntry& r : g.registers) {
        // A register without fields is still looked up: a required one missing is an error.
        const char* binding = r.fields.empty() ? "(void)" : "const RegisterDescription* d = ";
        os << "    {\n        " << binding << "map.find_register(\"" << g.name << "\", \"" << r.name << "\", "
           << required(r.devices, family) << ");\n";
        for (const FieldEntry& f : r.fields)
            os << "        " << ident(r.name) << "." << ident(f.name) << " = map.bind(d, \"" << g.name << "\", \""
               << r.name << "\", \"" << f.name << "\", " << required(f.devices, family) << ");\n";
        os << "    }\n";
    }
}

std::string cnn_source(const Family& fam) {
    std::ostringstream os;
    os << header_banner(fam) << "#include \"registers/cnn.h\"\n\nnamespace ai8x {\n\n"
       << "const char* layer_register_kind_name(unsigned kind) {\n    static const char* const names[] = {";
    for (const std::string& k : layer_kinds(fam)) os << (k.empty() ? "nullptr" : "\"" + k + "\"") << ", ";
    os << "};\n    return kind < kLayerRegisterKinds ? names[kind] : nullptr;\n}\n\n"
       << "const char* quadrant_register_name(QuadrantRegister r) {\n    static const char* const names[] = {";
    for (const RegisterEntry& r : fam.quadrant.registers) os << "\"" << r.name << "\", ";
    os << "};\n    return unsigned(r) < kQuadrantRegisters ? names[unsigned(r)] : nullptr;\n}\n\n"
       << "namespace regs {\n\nCnnFields::CnnFields(const RegisterMap& map) {\n";
    for (const Group* g : {&fam.quadrant, &fam.layer, &fam.fifo, &fam.aon}) emit_binding(os, *g, fam.devices);
    os << "}\n\n}  // namespace regs\n\n}  // namespace ai8x\n";
    return os.str();
}

void emit_peripheral(std::ostream& os, const Group& g, unsigned family) {
    os << "// " << g.name << ": " << comment(g.meaning) << "\nnamespace " << lower(g.name) << " {\n\n"
       << "constexpr const char* kName = \"" << g.name << "\";\n\n";
    for (const RegisterEntry& r : g.registers) {
        const std::string type = ident(r.name);
        os << "// " << comment(r.meaning) << "\nstruct " << type << " : PeripheralRegister {\n    explicit " << type
           << "(Peripheral& p)\n        : PeripheralRegister(p, \"" << r.name << "\", " << required(r.devices, family)
           << ")";
        for (const FieldEntry& f : r.fields)
            os << ",\n          " << ident(f.name) << "(field(\"" << f.name << "\", " << required(f.devices, family)
               << "))";
        os << " {}\n";
        for (const FieldEntry& f : r.fields)
            os << "    const RegField " << ident(f.name) << ";  // " << comment(f.meaning) << "\n";
        os << "};\n\n";
    }
    os << "}  // namespace " << lower(g.name) << "\n\n";
}

std::string soc_header(const Family& fam) {
    std::ostringstream os;
    os << header_banner(fam) << "#pragma once\n\n#include \"tlm/peripheral.h\"\n\nnamespace ai8x::regs {\n\n";
    for (const Group& g : fam.peripherals) emit_peripheral(os, g, g.devices);
    os << "}  // namespace ai8x::regs\n";
    return os.str();
}

// Writes `text` to `path` unless the file already holds it.
void write_if_changed(const std::string& path, const std::string& text) {
    std::ifstream in(path);
    std::stringstream old;
    old << in.rdbuf();
    if (in && old.str() == text) return;
    std::ofstream out(path, std::ios::binary);
    if (!(out << text)) throw std::runtime_error(path + ": cannot write");
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: ai8xsim-reggen OUT_DIR BASE.yaml [DEVICE.yaml...]\n");
        return 2;
    }
    try {
        const Family fam = read_family(std::vector<std::string>(argv + 2, argv + argc));
        const std::string dir = std::string(argv[1]) + "/registers";
        std::filesystem::create_directories(dir);
        write_if_changed(dir + "/cnn.h", cnn_header(fam));
        write_if_changed(dir + "/cnn.cpp", cnn_source(fam));
        write_if_changed(dir + "/soc.h", soc_header(fam));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "ai8xsim-reggen: %s\n", e.what());
        return 2;
    }
    return 0;
}
