#include "testbench/unit/model/vector_loader.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "model/memories/kernel_memory_port.h"
#include "model/registers/fifo_registers.h"
#include "model/registers/register_fields.h"
#include "model/registers/quadrant_registers.h"

namespace ai8x::test {

namespace {

std::string read_text(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error(path + ": cannot open");
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string hex(uint64_t v) {
    char b[24];
    std::snprintf(b, sizeof b, "0x%08llx", static_cast<unsigned long long>(v));
    return b;
}

// Numbers of "#define NAME { ... }" (hex or decimal, comma separated).
std::vector<uint32_t> define_array(const std::string& text, const std::string& name, const std::string& file) {
    const std::string key = "#define " + name + " {";
    const auto start = text.find(key);
    if (start == std::string::npos) throw std::runtime_error(file + ": no array " + name);
    const auto end = text.find('}', start);
    if (end == std::string::npos) throw std::runtime_error(file + ": array " + name + " not terminated");
    // Words of letters, digits and '_': a hex word's 0x-prefixed digits (a
    // suffix such as 'u' ends them), or a word of decimal digits. A scan, not
    // std::regex: the kernel arrays run to megabytes, and a regex iterator
    // over them was most of the model tests' run time.
    std::vector<uint32_t> values;
    const auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    for (auto i = start + key.size(); i < end;) {
        if (!word_char(text[i])) {
            ++i;
            continue;
        }
        auto word_end = i;
        while (word_end < end && word_char(text[word_end])) ++word_end;
        const std::string word = text.substr(i, word_end - i);
        if (word.size() > 2 && word[0] == '0' && word[1] == 'x' && std::isxdigit(static_cast<unsigned char>(word[2])))
            values.push_back(static_cast<uint32_t>(std::stoull(word.substr(2), nullptr, 16)));
        else if (std::all_of(word.begin(), word.end(),
                             [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
            values.push_back(static_cast<uint32_t>(std::stoull(word, nullptr, 0)));
        i = word_end;
    }
    return values;
}

// Lines of the body of function `name` in a C file, with their line numbers.
std::vector<std::pair<int, std::string>> function_body(const std::string& text, const std::string& name) {
    std::vector<std::pair<int, std::string>> lines;
    std::istringstream in(text);
    std::string line;
    int number = 0;
    bool inside = false;
    const std::regex header("^[A-Za-z_].*\\b" + name + "\\s*\\(");
    while (std::getline(in, line)) {
        ++number;
        if (!inside) {
            inside = std::regex_search(line, header) && line.find(';') == std::string::npos;
            continue;
        }
        if (line.rfind("}", 0) == 0) break;
        lines.emplace_back(number, line);
    }
    return lines;
}

struct Located {
    uint32_t quadrant = 0, instance = 0, offset = 0;  // offset in bytes inside the instance
};

bool locate(const ArrayGeometry& g, uint32_t quadrants, uint64_t address, Located& out) {
    if (address < g.base) return false;
    const uint64_t rel = address - g.base;
    const uint64_t q = rel / g.quadrant_stride;
    const uint64_t in_quadrant = rel % g.quadrant_stride;
    const uint64_t instance = in_quadrant / g.instance_stride;
    if (q >= quadrants || instance >= g.instances_per_quadrant) return false;
    out.quadrant = static_cast<uint32_t>(q);
    out.instance = static_cast<uint32_t>(instance);
    out.offset = static_cast<uint32_t>(in_quadrant % g.instance_stride);
    return true;
}

void apply_register(AcceleratorState& s, const RegisterWrite& w) {
    const DeviceConfig& c = s.cfg;
    const auto fail = [&] {
        throw std::runtime_error("cnn.c:" + std::to_string(w.line) + ": register address " + hex(w.address) +
                                 " does not decode");
    };
    if (w.address >= c.quadrant_regs.base) {
        const uint64_t rel = w.address - c.quadrant_regs.base;
        const uint64_t q = rel / c.quadrant_regs.quadrant_stride;
        const uint64_t off = rel % c.quadrant_regs.quadrant_stride;
        if (q < c.quadrants && off < c.quadrant_regs.size) {
            QuadrantRegisters& r = s.quadrant[q];
            switch (off) {
                case 0x0: r.ctl = w.value; return;
                case 0x4: r.sram = w.value; return;
                case 0x8: r.lcnt_max = w.value; return;
                case 0xc: r.sram_test = w.value; return;
                default: break;
            }
            if (off == c.mlat_offset) {
                r.mlat = w.value;
                return;
            }
            // REG_IFRM occupies a word of the per-layer banks that no kind uses (MAX78000).
            if (off == c.registers->quadrant_register("REG_IFRM").offset) {
                r.ifrm = w.value;
                return;
            }
            const uint64_t lro = c.layer_register_offset;
            if (off >= lro && off < lro + uint64_t{c.layer_register_count} * c.layer_register_stride) {
                const uint64_t kind = (off - lro) / c.layer_register_stride;
                const uint64_t layer = (off - lro) % c.layer_register_stride / 4;
                if (layer < c.max_layers) {
                    r.lreg[kind][layer] = w.value;
                    return;
                }
            }
            fail();
        }
    }
    if (w.address == c.fifo_regs.base) {
        s.fifo_ctl = w.value;
        return;
    }
    if (w.address == c.aon_regs.base) {
        s.aon_ctl = w.value;
        return;
    }
    fail();
}

}  // namespace

GoldenVector load_vector(const std::string& dir) {
    GoldenVector v;
    v.dir = dir;
    v.name = dir.substr(dir.find_last_of('/') + 1);

    const std::string cnn_path = dir + "/cnn.c";
    const std::string cnn = read_text(cnn_path);
    static const std::regex reg_write(R"(^\s*\*\(\(volatile uint32_t \*\) (0x[0-9a-fA-F]+)\) = (0x[0-9a-fA-F]+);)");
    for (const char* fn : {"cnn_init", "cnn_configure", "cnn_start"}) {
        const auto body = function_body(cnn, fn);
        if (body.empty()) throw std::runtime_error(cnn_path + ": function " + fn + " not found");
        for (const auto& [line, text] : body) {
            std::smatch m;
            if (std::regex_search(text, m, reg_write))
                v.registers.push_back({static_cast<uint32_t>(std::stoul(m[1], nullptr, 16)),
                                       static_cast<uint32_t>(std::stoul(m[2], nullptr, 16)), line});
        }
        if (std::string(fn) == "cnn_init") v.init_writes = v.registers.size();
        if (std::string(fn) == "cnn_configure") v.configure_writes = v.registers.size() - v.init_writes;
    }

    const std::string weights_path = dir + "/weights.h";
    const std::string weights = read_text(weights_path);
    const std::vector<uint32_t> k = define_array(weights, "KERNELS", weights_path);
    for (std::size_t i = 0; i < k.size() && k[i] != 0;) {
        if (i + 1 >= k.size() || i + 2 + k[i + 1] > k.size())
            throw std::runtime_error(weights_path + ": KERNELS block at " + hex(k[i]) + " truncated");
        KernelBlock block;
        block.address = k[i];
        block.words.assign(k.begin() + i + 2, k.begin() + i + 2 + k[i + 1]);
        v.kernels.push_back(std::move(block));
        i += 2 + k[i + 1];
    }

    static const std::regex bias_copy(
        R"(memcpy_8to32\(\(uint32_t \*\) (0x[0-9a-fA-F]+), bias_(\d+), sizeof\(uint8_t\) \* (\d+)\))");
    for (const auto& [line, text] : function_body(cnn, "cnn_load_bias")) {
        std::smatch m;
        if (!std::regex_search(text, m, bias_copy)) continue;
        ArrayCopy copy;
        copy.address = static_cast<uint32_t>(std::stoul(m[1], nullptr, 16));
        copy.values = define_array(weights, "BIAS_" + m[2].str(), weights_path);
        const std::size_t n = std::stoul(m[3]);
        if (copy.values.size() < n)
            throw std::runtime_error(cnn_path + ":" + std::to_string(line) + ": BIAS_" + m[2].str() + " too short");
        copy.values.resize(n);
        v.biases.push_back(std::move(copy));
    }

    const std::string main_path = dir + "/main.c";
    const std::string main_c = read_text(main_path);
    const std::string data_path = dir + "/sampledata.h";
    const std::string data = read_text(data_path);
    static const std::regex input_copy(R"(memcpy32\(\(uint32_t \*\) (0x[0-9a-fA-F]+), input_(\d+), (\d+)\))");
    for (const auto& [line, text] : function_body(main_c, "load_input")) {
        std::smatch m;
        if (!std::regex_search(text, m, input_copy)) continue;
        ArrayCopy copy;
        copy.address = static_cast<uint32_t>(std::stoul(m[1], nullptr, 16));
        copy.values = define_array(data, "SAMPLE_INPUT_" + m[2].str(), data_path);
        const std::size_t n = std::stoul(m[3]);
        if (copy.values.size() < n)
            throw std::runtime_error(main_path + ":" + std::to_string(line) + ": SAMPLE_INPUT_" + m[2].str() +
                                     " shorter than the copy");
        copy.values.resize(n);
        v.inputs.push_back(std::move(copy));
    }
    // FIFO input: a loop of N iterations, each writing "*inK++" to a FIFO data register.
    static const std::regex fifo_loop(R"(for \(i = 0; i < (\d+); i\+\+\))");
    static const std::regex fifo_pointer(R"(const uint32_t \*(\w+) = input_(\d+);)");
    static const std::regex fifo_write(R"(\*\(\(volatile uint32_t \*\) (0x[0-9a-fA-F]+)\) = \*(\w+)\+\+;)");
    std::size_t iterations = 0;
    std::vector<std::pair<std::string, std::string>> pointers;  // variable -> input index
    for (const auto& [line, text] : function_body(main_c, "load_input")) {
        std::smatch m;
        if (std::regex_search(text, m, fifo_loop))
            iterations = std::stoul(m[1]);
        else if (std::regex_search(text, m, fifo_pointer))
            pointers.emplace_back(m[1], m[2]);
        else if (std::regex_search(text, m, fifo_write)) {
            std::string index;
            for (const auto& [var, idx] : pointers)
                if (var == m[2].str()) index = idx;
            if (index.empty())
                throw std::runtime_error(main_path + ":" + std::to_string(line) + ": unknown input pointer " +
                                         m[2].str());
            if (iterations == 0)
                throw std::runtime_error(main_path + ":" + std::to_string(line) + ": FIFO write outside a loop");
            std::vector<uint32_t> words = define_array(data, "SAMPLE_INPUT_" + index, data_path);
            if (words.size() < iterations)
                throw std::runtime_error(data_path + ": SAMPLE_INPUT_" + index + " has " +
                                         std::to_string(words.size()) + " words, load_input() pushes " +
                                         std::to_string(iterations));
            words.resize(iterations);
            v.fifo_writes.push_back({static_cast<uint32_t>(std::stoul(m[1].str(), nullptr, 16)), std::move(words)});
        }
    }
    if (v.inputs.empty() && v.fifo_writes.empty())
        throw std::runtime_error(main_path + ": neither memcpy32 input copies nor FIFO writes in load_input()");

    const std::string out_path = dir + "/sampleoutput.h";
    const std::vector<uint32_t> o = define_array(read_text(out_path), "SAMPLE_OUTPUT", out_path);
    for (std::size_t i = 0; i < o.size() && o[i] != 0;) {
        if (i + 2 >= o.size() || i + 3 + o[i + 2] > o.size())
            throw std::runtime_error(out_path + ": SAMPLE_OUTPUT block at " + hex(o[i]) + " truncated");
        ExpectedBlock block{o[i], o[i + 1], std::vector<uint32_t>(o.begin() + i + 3, o.begin() + i + 3 + o[i + 2])};
        v.expected.push_back(std::move(block));
        i += 3 + o[i + 2];
    }
    return v;
}

void apply_vector(const GoldenVector& vec, AcceleratorState& s) {
    const DeviceConfig& c = s.cfg;
    for (const auto& w : vec.registers) apply_register(s, w);

    // Kernels take the path cnn.c takes: the kernel memory port's express
    // protocol (start byte at the odd address, then the packed stream), so the
    // packing is decoded in one place (model/memories/kernel_memory_port).
    const uint32_t express_ctl = register_fields(c).REG_CTL.MEXPRESS.with(0, 1);
    for (const auto& block : vec.kernels) {
        Located at;
        if (!locate(c.kernel_mem, c.quadrants, block.address, at))
            throw std::runtime_error(vec.name + ": kernel address " + hex(block.address) + " does not decode");
        const uint64_t quadrant_base = c.kernel_mem.base + uint64_t{at.quadrant} * c.kernel_mem.quadrant_stride;
        std::vector<KernelArray*> instances;
        for (uint32_t i = 0; i < c.kernel_mem.instances_per_quadrant; ++i)
            instances.push_back(&s.kernel_arrays[at.quadrant * c.kernel_mem.instances_per_quadrant + i]);
        KernelMemoryPort port("kernel", c, at.quadrant, quadrant_base, instances, express_ctl);
        const uint64_t offset = block.address - quadrant_base;
        const auto write = [&](uint64_t at_offset, uint32_t value, unsigned bytes) {
            tlm::tlm_generic_payload t;
            t.set_command(tlm::TLM_WRITE_COMMAND);
            t.set_data_ptr(reinterpret_cast<unsigned char*>(&value));  // little-endian host, as the bus
            t.set_data_length(bytes);
            t.set_streaming_width(bytes);
            t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
            port.transport(t, at_offset);
            if (t.get_response_status() != tlm::TLM_OK_RESPONSE)
                throw std::runtime_error(vec.name + ": kernel block " + hex(block.address) +
                                         " rejected by kernel memory");
        };
        write(offset | 1, 1, 1);
        for (std::size_t n = 0; n < block.words.size(); ++n) write(offset + 4 * n, block.words[n], 4);
    }
    for (const auto& copy : vec.biases) {
        Located at;
        if (!locate(c.bias_mem, c.quadrants, copy.address, at))
            throw std::runtime_error(vec.name + ": bias address " + hex(copy.address) + " does not decode");
        auto& mem = s.bias[at.quadrant * c.bias_mem.instances_per_quadrant + at.instance];
        const uint32_t first = at.offset / c.bias_mem.slot_bytes;
        if (first + copy.values.size() > mem.size())
            throw std::runtime_error(vec.name + ": bias copy at " + hex(copy.address) + " overruns bias memory");
        for (std::size_t i = 0; i < copy.values.size(); ++i) mem[first + i] = static_cast<uint8_t>(copy.values[i]);
    }
    for (const auto& copy : vec.inputs) {
        Located at;
        if (!locate(c.data_sram, c.quadrants, copy.address, at))
            throw std::runtime_error(vec.name + ": input address " + hex(copy.address) + " does not decode");
        auto& mem = s.data_sram[at.quadrant * c.data_sram.instances_per_quadrant + at.instance];
        const uint32_t first = at.offset / c.data_sram.slot_bytes;
        if (first + copy.values.size() > mem.size())
            throw std::runtime_error(vec.name + ": input copy at " + hex(copy.address) + " overruns data memory");
        std::copy(copy.values.begin(), copy.values.end(), mem.begin() + first);
    }
}

ControlWrite start_write(const GoldenVector& vec, const DeviceConfig& cfg) {
    const auto& regs = cfg.quadrant_regs;
    const regs::quadrant::REG_CTL& ctl = register_fields(cfg).REG_CTL;
    ControlWrite found;
    for (const auto& w : vec.registers)
        if (w.address >= regs.base && (w.address - regs.base) % regs.quadrant_stride == 0 && ctl.CNN_EN.is_set(w.value))
            found = {w.address, w.value};
    return found;
}

std::vector<std::vector<uint32_t>> fifo_frame(const GoldenVector& vec, const DeviceConfig& cfg) {
    std::vector<std::vector<uint32_t>> frame(cfg.fifo_count);
    const uint64_t data0 = cfg.fifo_regs.base + fifo_data_offset(cfg, 0);
    for (const auto& w : vec.fifo_writes) {
        if (w.address < data0 || (w.address - data0) % 4 != 0 || (w.address - data0) / 4 >= cfg.fifo_count)
            throw std::runtime_error(vec.dir + "/main.c: load_input() writes " + hex(w.address) +
                                     ", which is not a FIFO data register");
        frame[(w.address - data0) / 4] = w.values;
    }
    return frame;
}

std::optional<uint32_t> read_data_word(const AcceleratorState& s, uint32_t address) {
    const DeviceConfig& c = s.cfg;
    Located at;
    if (!locate(c.data_sram, c.quadrants, address, at)) return std::nullopt;
    const uint32_t word = at.offset / c.data_sram.slot_bytes;
    const auto& mem = s.data_sram[at.quadrant * c.data_sram.instances_per_quadrant + at.instance];
    if (word >= mem.size()) return std::nullopt;
    return mem[word];
}

std::optional<Mismatch> compare_expected(const GoldenVector& vec, const AcceleratorState& s) {
    std::optional<Mismatch> first;
    std::size_t bad = 0, total = 0;
    for (const auto& block : vec.expected) {
        for (std::size_t i = 0; i < block.words.size(); ++i) {
            const uint32_t address = block.address + static_cast<uint32_t>(4 * i);
            const std::optional<uint32_t> word = read_data_word(s, address);
            const uint32_t actual = word ? (*word & block.mask) : 0xdeadbeefu;
            ++total;
            if (word && actual == block.words[i]) continue;
            ++bad;
            if (!first) first = Mismatch{address, block.words[i], actual, 0, 0};
        }
    }
    if (first) {
        first->mismatching_words = bad;
        first->total_words = total;
    }
    return first;
}

namespace {}  // namespace

// Rows of the INDEX.md summary table, split into trimmed cells.
std::vector<std::vector<std::string>> index_rows(const std::string& vectors_dir) {
    const std::string path = vectors_dir + "/INDEX.md";
    std::istringstream in(read_text(path));
    std::vector<std::vector<std::string>> rows;
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("## ", 0) == 0 && !rows.empty()) break;  // end of the summary table
        if (line.rfind("| ", 0) != 0) continue;
        std::vector<std::string> cells;
        std::stringstream row(line.substr(1));
        std::string cell;
        while (std::getline(row, cell, '|')) {
            const auto b = cell.find_first_not_of(' ');
            const auto e = cell.find_last_not_of(' ');
            cells.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
        }
        if (cells.size() < 5 || cells[0] == "vector" || cells[0].rfind("---", 0) == 0) continue;
        rows.push_back(std::move(cells));
    }
    if (rows.empty()) throw std::runtime_error(path + ": no vectors found in the summary table");
    return rows;
}

std::vector<std::string> vector_names_where(const std::string& vectors_dir, std::size_t column) {
    std::vector<std::string> names;
    for (const auto& cells : index_rows(vectors_dir))
        if (cells[column] == "yes") names.push_back(cells[0]);
    return names;
}

std::vector<std::string> fifo_vector_names(const std::string& vectors_dir) {
    return vector_names_where(vectors_dir, kIndexFifoColumn);
}

std::vector<std::string> plain_vector_names(const std::string& vectors_dir) {
    std::vector<std::string> names;
    for (const auto& cells : index_rows(vectors_dir))
        if (cells[3].empty() && cells[4].empty()) names.push_back(cells[0]);
    return names;
}

}  // namespace ai8x::test
