#include "app/register_map_doc.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include "build_paths.h"

namespace ai8x {

namespace {

std::string hex(uint64_t v, int digits = 1) {
    char text[32];
    std::snprintf(text, sizeof text, "0x%0*llx", digits, static_cast<unsigned long long>(v));
    return text;
}

std::string code(const std::string& s) { return "`" + s + "`"; }

std::string bits(const FieldDescription& f) {
    const unsigned hi = f.lsb + f.width - 1;
    return hi == f.lsb ? std::to_string(hi) : std::to_string(hi) + ":" + std::to_string(f.lsb);
}

// Table cells must not contain the column separator.
std::string cell(std::string s) {
    for (std::size_t i = 0; (i = s.find('|', i)) != std::string::npos; i += 2) s.replace(i, 1, "\\|");
    return s;
}

std::string field_table(const RegisterDescription& r) {
    std::ostringstream os;
    os << "| bits | field | reset | meaning |\n|---|---|---|---|\n";
    for (const FieldDescription& f : r.fields)
        os << "| " << bits(f) << " | " << code(f.name) << " | " << hex(f.reset) << " | " << cell(f.meaning) << " |\n";
    return os.str();
}

std::string instance_name(const RegisterDescription& r) {
    return r.count > 1 ? r.name + "0.." + r.name + std::to_string(r.count - 1) : r.name;
}

std::string offset_text(const RegisterDescription& r) {
    std::string s = code(hex(r.offset, 3));
    if (r.count > 1) s += " + " + std::to_string(r.step) + " * i";
    return s;
}

// Summary table, then every register's fields.
std::string register_group(const std::vector<RegisterDescription>& group) {
    std::ostringstream os;
    os << "| offset | name | access | reset | meaning |\n|---|---|---|---|---|\n";
    for (const RegisterDescription& r : group)
        os << "| " << offset_text(r) << " | " << code(instance_name(r)) << " | " << to_string(r.access) << " | "
           << code(hex(r.reset, 8)) << " | " << cell(r.meaning) << " |\n";
    for (const RegisterDescription& r : group) os << "\n### " << instance_name(r) << "\n\n" << field_table(r);
    return os.str();
}

std::string quadrant_registers(const DeviceConfig& cfg) {
    std::ostringstream os;
    os << "Offsets are from the quadrant block base (quadrant *q* at " << code(hex(cfg.quadrant_regs.base))
       << " + *q* * " << code(hex(cfg.quadrant_regs.quadrant_stride)) << ").\n\n"
       << register_group(cfg.registers->quadrant);
    return os.str();
}

std::string layer_registers(const DeviceConfig& cfg) {
    const RegisterMap& m = *cfg.registers;
    std::ostringstream os;
    os << cfg.max_layers << " layers x " << cfg.layer_register_count << " slots. Register *kind* of layer *l* is at "
       << code(hex(cfg.layer_register_offset) + " + slot * " + hex(cfg.layer_register_stride) + " + l * 4")
       << " in the quadrant block. All are RW.\n\n";
    os << "| slot | name | offset of layer 0 | reset | meaning |\n|---|---|---|---|---|\n";
    for (uint32_t slot = 0; slot < cfg.layer_register_count; ++slot) {
        const RegisterDescription* r = nullptr;
        for (const RegisterDescription& d : m.layer)
            if (d.slot == slot) r = &d;
        const uint64_t offset = cfg.layer_register_offset + uint64_t(slot) * cfg.layer_register_stride;
        if (r) {
            os << "| " << slot << " | " << code(r->name) << " | " << code(hex(offset, 3)) << " | "
               << code(hex(r->reset, 8)) << " | " << cell(r->meaning) << " |\n";
            continue;
        }
        std::string used = "no per-layer register";
        for (const RegisterDescription& q : m.quadrant)
            if (q.offset == offset) used = "layer 0 only: " + code(q.name) + " (quadrant register)";
        os << "| " << slot << " | - | " << code(hex(offset, 3)) << " | - | " << used << " |\n";
    }
    for (const RegisterDescription& r : m.layer)
        os << "\n### " << r.name << " (slot " << r.slot << ")\n\n" << field_table(r);
    return os.str();
}

std::string block_offsets(const RegisterBlockGeometry& b, const std::vector<RegisterDescription>& group) {
    return "Offsets are from " + code(hex(b.base)) + " (the block exists once).\n\n" + register_group(group);
}

// One row of the blocks table for a memory array.
std::string memory_row(const std::string& name, const ArrayGeometry& g, const std::string& contents) {
    std::ostringstream os;
    os << "| " << name << " | " << code(hex(g.base)) << " | ";
    if (g.instances_per_quadrant > 1)
        os << g.instances_per_quadrant << " instances, " << code(hex(g.instance_stride)) << " apart, ";
    os << g.words << " slots of " << g.slot_bytes << " bytes | " << contents << " |\n";
    return os.str();
}

std::string blocks(const DeviceConfig& cfg) {
    std::ostringstream os;
    os << "The accelerator has " << cfg.quadrants << " quadrants (processor groups) of " << cfg.processors_per_quadrant
       << " processors. Every per-quadrant block repeats with a stride of "
       << code(hex(cfg.quadrant_regs.quadrant_stride)) << ": quadrant *q* adds *q* * "
       << code(hex(cfg.quadrant_regs.quadrant_stride)) << " to the quadrant-0 address below.\n\n";
    os << "| block | quadrant-0 address | size | contents |\n|---|---|---|---|\n";
    os << "| FIFO registers | " << code(hex(cfg.fifo_regs.base)) << " (once) | " << code(hex(cfg.fifo_regs.size))
       << " | FIFO control, status, " << cfg.fifo_count << " data registers |\n";
    os << "| AON registers | " << code(hex(cfg.aon_regs.base)) << " (once) | " << code(hex(cfg.aon_regs.size))
       << " | always-on control |\n";
    os << "| quadrant registers | " << code(hex(cfg.quadrant_regs.base)) << " | " << code(hex(cfg.quadrant_regs.size))
       << " | control, SRAM, layer count, per-layer registers |\n";
    os << memory_row("bias memory", cfg.bias_mem,
                     "one " + std::to_string(cfg.bias_mem.word_bits) + "-bit bias per slot");
    os << memory_row("TRAM", cfg.tram,
                     "one " + std::to_string(cfg.tram.word_bits) + "-bit value per slot, one instance per processor");
    os << memory_row(
        "kernel memory", cfg.kernel_mem,
        "one " + std::to_string(cfg.kernel_mem.word_bits) + "-bit kernel word per slot, one instance per processor");
    os << memory_row("data memory", cfg.data_sram,
                     std::to_string(cfg.data_sram.word_bits) + "-bit words; " +
                         std::to_string(cfg.processors_per_data_sram) + " processors share an instance");
    return os.str();
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(path + ": cannot read");
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

}  // namespace

std::string default_register_map_template_path() { return AI8XSIM_SOURCE_DIR "/docs/register-map.template.md"; }
std::string default_register_map_path() { return AI8XSIM_SOURCE_DIR "/docs/register-map.md"; }

std::string render_register_map(const DeviceConfig& cfg, const std::string& template_text) {
    if (!cfg.registers) throw std::invalid_argument(cfg.source_path + ": device description has no register_map");
    const auto section = [&](const std::string& marker) -> std::string {
        if (marker == "device") return cfg.name;
        // The file name only: the document must not depend on where the tree lives.
        if (marker == "config") return "configs/" + std::filesystem::path(cfg.source_path).filename().string();
        if (marker == "blocks") return blocks(cfg);
        if (marker == "quadrant_registers") return quadrant_registers(cfg);
        if (marker == "layer_registers") return layer_registers(cfg);
        if (marker == "fifo_registers") return block_offsets(cfg.fifo_regs, cfg.registers->fifo);
        if (marker == "aon_registers") return block_offsets(cfg.aon_regs, cfg.registers->aon);
        throw std::invalid_argument("register map template: unknown marker {{" + marker + "}}");
    };
    std::string out;
    std::size_t pos = 0;
    for (;;) {
        const std::size_t open = template_text.find("{{", pos);
        if (open == std::string::npos) break;
        const std::size_t close = template_text.find("}}", open);
        if (close == std::string::npos) throw std::invalid_argument("register map template: unterminated {{");
        out += template_text.substr(pos, open - pos);
        std::string text = section(template_text.substr(open + 2, close - open - 2));
        // A table replaces its marker's line; keep exactly one line break at its end.
        while (!text.empty() && text.back() == '\n') text.pop_back();
        out += text;
        pos = close + 2;
    }
    return out + template_text.substr(pos);
}

std::string render_register_map(const DeviceConfig& cfg) {
    return render_register_map(cfg, read_file(default_register_map_template_path()));
}

std::string register_map_difference(const std::string& rendered, const std::string& committed,
                                    const std::string& committed_path) {
    if (rendered == committed) return {};
    std::istringstream a(rendered), b(committed);
    std::string la, lb;
    int line = 0;
    for (;;) {
        ++line;
        const bool more_a = static_cast<bool>(std::getline(a, la));
        const bool more_b = static_cast<bool>(std::getline(b, lb));
        if (!more_a && !more_b) break;  // only a final line break differs
        if (!more_a || !more_b || la != lb) break;
    }
    return committed_path + ":" + std::to_string(line) + " differs from what the device description renders\n" +
           "  committed: " + (b ? lb : std::string("(end of file)")) + "\n" +
           "  generated: " + (a ? la : std::string("(end of file)")) + "\n" +
           "Regenerate it: cmake --build build --target ai8xsim-regdoc && build/ai8xsim-regdoc -o " + committed_path +
           " (edit the prose in docs/register-map.template.md, the tables in configs/*.yaml register_map)";
}

}  // namespace ai8x
