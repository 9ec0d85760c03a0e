#include "testbench/reference/generator_log.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <regex>
#include <stdexcept>

#include "testbench/reference/reference_layer.h"

namespace ai8x::reference {

namespace {

// --- The configuration table: "Name = [python list]" -----------------------

struct Node {
    bool is_list = false;
    std::string atom;
    std::vector<Node> items;
};

class ListParser {
public:
    explicit ListParser(const std::string& text) : s_(text) {}
    Node parse() {
        skip_space();
        Node n;
        if (pos_ < s_.size() && s_[pos_] == '[') {
            n.is_list = true;
            ++pos_;
            skip_space();
            if (pos_ < s_.size() && s_[pos_] == ']') {
                ++pos_;
                return n;
            }
            for (;;) {
                n.items.push_back(parse());
                skip_space();
                if (pos_ >= s_.size()) throw std::runtime_error("unterminated list");
                const char c = s_[pos_++];
                if (c == ']') break;
                if (c != ',') throw std::runtime_error(std::string("unexpected '") + c + "' in list");
            }
            return n;
        }
        const std::size_t start = pos_;
        while (pos_ < s_.size() && s_[pos_] != ',' && s_[pos_] != ']') ++pos_;
        n.atom = s_.substr(start, pos_ - start);
        while (!n.atom.empty() && std::isspace(static_cast<unsigned char>(n.atom.back()))) n.atom.pop_back();
        return n;
    }

private:
    void skip_space() {
        while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    }
    const std::string& s_;
    std::size_t pos_ = 0;
};

int64_t atom_int(const Node& n) {
    if (n.is_list) throw std::runtime_error("expected a number, found a list");
    std::size_t used = 0;
    const int64_t v = std::stoll(n.atom, &used, 0);
    if (used != n.atom.size()) throw std::runtime_error("not a number: '" + n.atom + "'");
    return v;
}

// --- Layer sections ----------------------------------------------------------

struct Block {
    std::string header;
    int line = 0;
    std::vector<int64_t> values;
    bool truncated = false;  // numpy printed "..." instead of all values
};

struct Section {
    int layer = 0;
    int operands = 1;
    int line = 0;
    std::vector<Block> blocks;
};

bool is_array_line(const std::string& line) {
    bool digit = false;
    for (char c : line) {
        if (std::isdigit(static_cast<unsigned char>(c)))
            digit = true;
        else if (c != '[' && c != ']' && c != '-' && c != ' ' && c != '.')
            return false;
    }
    return digit || line.find("...") != std::string::npos;
}

void append_ints(const std::string& text, Block& block) {
    if (text.find("...") != std::string::npos) block.truncated = true;
    std::size_t i = 0;
    while (i < text.size()) {
        const bool negative =
            text[i] == '-' && i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1]));
        if (negative || std::isdigit(static_cast<unsigned char>(text[i]))) {
            std::size_t used = 0;
            block.values.push_back(std::stoll(text.substr(i), &used));
            i += used;
        } else {
            ++i;
        }
    }
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }
bool contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

// Lines that only label the array that follows.
bool is_label_line(const std::string& line) {
    return starts_with(line, "Channel #") || starts_with(line, "Channels #") || starts_with(line, "Output channel #") ||
           starts_with(line, "Output channels #");
}

bool is_data_block(const Block& b) {
    return !b.values.empty() && !contains(b.header, "KERNEL") && !starts_with(b.header, "BIAS") &&
           !starts_with(b.header, "FLATTEN");
}

// --- Turning a section into a case -------------------------------------------

class CaseBuilder {
public:
    CaseBuilder(const std::map<std::string, Node>& config, bool avg_rounding)
        : config_(config), avg_rounding_(avg_rounding) {}

    // Returns the case, or the reason it cannot be built.
    std::optional<LogLayerCase> build(const Section& s, std::string& reason) const;

private:
    const Node& entry(const std::string& key, int layer) const {
        auto it = config_.find(key);
        if (it == config_.end() || !it->second.is_list)
            throw std::runtime_error("configuration entry '" + key + "' missing");
        if (layer < 0 || layer >= static_cast<int>(it->second.items.size()))
            throw std::runtime_error("configuration entry '" + key + "' has no layer " + std::to_string(layer));
        return it->second.items[layer];
    }
    int64_t number(const std::string& key, int layer) const { return atom_int(entry(key, layer)); }
    std::string word(const std::string& key, int layer) const { return entry(key, layer).atom; }
    Pair pair(const std::string& key, int layer) const {
        const Node& n = entry(key, layer);
        if (!n.is_list || n.items.empty()) return {static_cast<int>(atom_int(n)), 1};
        return {static_cast<int>(atom_int(n.items[0])),
                n.items.size() > 1 ? static_cast<int>(atom_int(n.items[1])) : 1};
    }

    const std::map<std::string, Node>& config_;
    bool avg_rounding_;
};

std::optional<Op> op_from_name(const std::string& name) {
    if (name == "conv2d") return Op::Conv2d;
    if (name == "conv1d") return Op::Conv1d;
    if (name == "convtranspose2d") return Op::ConvTranspose2d;
    if (name == "linear") return Op::Linear;
    if (name == "passthrough" || name == "none") return Op::Passthrough;
    return std::nullopt;
}

std::optional<arith::EltwiseOp> eltwise_from_name(const std::string& name) {
    if (name == "add") return arith::EltwiseOp::Add;
    if (name == "sub") return arith::EltwiseOp::Sub;
    if (name == "xor") return arith::EltwiseOp::Xor;
    if (name == "or") return arith::EltwiseOp::Or;
    return std::nullopt;
}

// Smallest dilation that turns `in` into `out` (the log does not print it).
std::optional<int> infer_dilation(int in, int kernel, int stride, int pad, int out) {
    for (int d = 1; d <= 64; ++d) {
        const int span = d * (kernel - 1) + 1;
        if (in + 2 * pad < span) break;
        if ((in + 2 * pad - span) / stride + 1 == out) return d;
    }
    return std::nullopt;
}

std::optional<LogLayerCase> CaseBuilder::build(const Section& s, std::string& reason) const {
    const int ll = s.layer;
    LogLayerCase c;
    c.layer = ll;
    LayerParams& p = c.params;

    const std::string op_name = word("Operator", ll);
    const auto op = op_from_name(op_name);
    if (!op) {
        reason = "operator '" + op_name + "' not modelled";
        return std::nullopt;
    }
    p.op = *op;
    p.out_channels = static_cast<int>(number("Output channels", ll));
    p.kernel = pair("Kernel dimensions", ll);
    p.padding = pair("Padding", ll);
    p.stride = pair("Stride", ll);
    p.groups = static_cast<int>(number("Convolution groups", ll));
    p.pool_size = pair("Pooling", ll);
    p.pool_stride = pair("Pooling stride", ll);
    p.avg_rounding = avg_rounding_ ? arith::AvgPoolRounding::Round : arith::AvgPoolRounding::Truncate;
    p.flatten = word("Flatten", ll) == "True";
    p.output_shift = static_cast<int>(number("Output shift", ll));
    p.wide_output = number("Output data bits", ll) == 32;
    std::string act = word("Activation", ll);
    std::transform(act.begin(), act.end(), act.begin(), [](unsigned char ch) { return std::tolower(ch); });
    p.activation = act == "relu"  ? arith::Activation::ReLU
                   : act == "abs" ? arith::Activation::Abs
                                  : arith::Activation::None;
    if (s.operands > 1) {
        const auto elt = eltwise_from_name(word("Element-wise op", ll));
        if (!elt) {
            reason = "element-wise op '" + word("Element-wise op", ll) + "' not modelled";
            return std::nullopt;
        }
        p.eltwise = *elt;
    }

    const Pair in_dims = pair("Input dimensions", ll);
    const std::regex input_re(R"(^\d+x\d+(?:x\d+)? INPUT DATA(?: \d+)?:$)");
    int pool_block = -1, eltwise_block = -1, kernel_block = -1, bias_block = -1, last_data = -1;
    for (int i = 0; i < static_cast<int>(s.blocks.size()); ++i) {
        const Block& b = s.blocks[i];
        if (b.truncated) {
            reason = "log truncates the array after '" + b.header + "' (line " + std::to_string(b.line) + ")";
            return std::nullopt;
        }
        std::smatch m;
        if (std::regex_match(b.header, m, input_re)) {
            // The generator reshapes each operand to (-1, rows, columns) before
            // use, so the printed channel count may differ (e.g. 4x20x20 -> 8x20x10).
            const std::size_t count = b.values.size();
            const std::size_t plane = static_cast<std::size_t>(in_dims[0]) * in_dims[1];
            if (count == 0 || plane == 0 || count % plane != 0) {
                reason = "input '" + b.header + "' does not match the input dimensions";
                return std::nullopt;
            }
            Tensor t(static_cast<int>(count / plane), in_dims[0], in_dims[1]);
            t.values = b.values;
            c.inputs.push_back(std::move(t));
        } else if (contains(b.header, " POOL ") && pool_block < 0) {
            pool_block = i;
            p.pool = starts_with(b.header, "AVERAGE") ? PoolType::Avg : PoolType::Max;
        } else if (contains(b.header, "-OPERAND ")) {
            eltwise_block = i;
        } else if (contains(b.header, "KERNEL")) {
            if (contains(b.header, "BYPASS")) {
                reason = "bypass layers are not modelled";
                return std::nullopt;
            }
            kernel_block = i;
            if (p.op == Op::Conv1d) {
                std::smatch k;
                if (std::regex_search(b.header, k, std::regex(R"(KERNEL SIZE (\d+))"))) p.kernel = {std::stoi(k[1]), 1};
            }
        } else if (starts_with(b.header, "BIAS")) {
            bias_block = i;
        }
        if (is_data_block(b)) last_data = i;
    }
    if (c.inputs.empty() || static_cast<int>(c.inputs.size()) != s.operands) {
        reason = "found " + std::to_string(c.inputs.size()) + " input arrays for " + std::to_string(s.operands) +
                 " operand(s)";
        return std::nullopt;
    }
    p.pool_first = eltwise_block < 0 || pool_block < 0 || eltwise_block > pool_block;
    if (p.op == Op::Conv1d) {
        p.padding[1] = 0;
        p.stride[1] = 1;
    }

    // Expected output, shaped as the configuration says.
    if (last_data < 0) {
        reason = "no output array";
        return std::nullopt;
    }
    const Pair out_dims = pair("Output dimensions", ll);
    const int out_ch = p.op == Op::Passthrough ? c.inputs[0].channels : p.out_channels;
    c.expected = Tensor(out_ch, out_dims[0], out_dims[1]);
    if (s.blocks[last_data].values.size() != c.expected.size()) {
        reason = "output array '" + s.blocks[last_data].header + "' holds " +
                 std::to_string(s.blocks[last_data].values.size()) + " values, expected " + c.expected.shape_string();
        return std::nullopt;
    }
    c.expected.values = s.blocks[last_data].values;
    if (p.op == Op::Passthrough) return c;

    // Operator input size after pooling and flattening.
    const Pair pooled = pooled_size(in_dims[0], in_dims[1], p);
    int op_in_ch = c.inputs[0].channels;
    Pair op_in = pooled;
    if (p.flatten) {
        op_in_ch *= pooled[0] * pooled[1];
        op_in = {1, 1};
    }
    if (p.op == Op::ConvTranspose2d) {
        for (int a = 0; a < 2; ++a)
            p.output_padding[a] = out_dims[a] - ((op_in[a] - 1) * p.stride[a] - 2 * p.padding[a] + p.kernel[a] - 1 + 1);
        if (p.output_padding[0] < 0 || p.output_padding[1] < 0) {
            reason = "output dimensions inconsistent with a transposed convolution";
            return std::nullopt;
        }
    } else {
        for (int a = 0; a < 2; ++a) {
            const auto d = infer_dilation(op_in[a], p.kernel[a], p.stride[a], p.padding[a], out_dims[a]);
            if (!d) {
                reason = "no dilation explains the output dimensions";
                return std::nullopt;
            }
            p.dilation[a] = *d;
        }
    }

    if (kernel_block < 0) {
        reason = "no kernel array";
        return std::nullopt;
    }
    if (p.groups < 1 || op_in_ch % p.groups != 0) {
        reason = "groups do not divide the input channels";
        return std::nullopt;
    }
    c.weights = Weights(p.out_channels, op_in_ch / p.groups, p.kernel[0], p.kernel[1]);
    const Block& kb = s.blocks[kernel_block];
    if (kb.values.size() != c.weights.values.size()) {
        reason = "kernel array holds " + std::to_string(kb.values.size()) + " values, expected " +
                 std::to_string(c.weights.values.size());
        return std::nullopt;
    }
    for (std::size_t i = 0; i < kb.values.size(); ++i) {
        if (kb.values[i] < -128 || kb.values[i] > 127) {
            reason = "kernel value out of 8-bit range";
            return std::nullopt;
        }
        c.weights.values[i] = static_cast<int8_t>(kb.values[i]);
    }
    if (bias_block >= 0 && !s.blocks[bias_block].values.empty()) {
        const Block& bb = s.blocks[bias_block];
        if (static_cast<int>(bb.values.size()) != p.out_channels) {
            reason = "bias array holds " + std::to_string(bb.values.size()) + " values";
            return std::nullopt;
        }
        for (int64_t v : bb.values) {
            if (v < -128 || v > 127) {
                reason = "bias value out of 8-bit range";
                return std::nullopt;
            }
            c.bias.push_back(static_cast<int8_t>(v));
        }
    }
    return c;
}

}  // namespace

GeneratorLog parse_generator_log(std::istream& text, const std::string& source) {
    std::map<std::string, Node> config;
    std::vector<Section> sections;
    bool avg_rounding = false;
    bool in_config = false;
    bool in_layers = false;
    const std::regex layer_re(R"(^LAYER (\d+) \([A-Z0-9]+(?:, (\d+) OPERANDS)?\)\.\.\.$)");
    const std::regex config_re(R"(^([A-Za-z][A-Za-z0-9 ()\-]*?)\s*=\s*(\[.*\])$)");

    std::string line;
    int number = 0;
    auto where = [&] { return source + ":" + std::to_string(number); };
    while (std::getline(text, line)) {
        ++number;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (number == 1) {
            if (!starts_with(line, "ai8xize.py")) throw std::runtime_error(where() + ": not a network generator log");
            avg_rounding = contains(line, "--avg-pool-rounding");
            continue;
        }
        if (line == "Per-layer configuration:") {
            in_config = true;
            continue;
        }
        if (line == "Layer register configuration:") {
            in_config = false;
            continue;
        }
        std::smatch m;
        if (in_config) {
            if (std::regex_match(line, m, config_re)) {
                try {
                    config[m[1]] = ListParser(m[2]).parse();
                } catch (const std::exception& e) {
                    throw std::runtime_error(where() + ": bad configuration entry: " + e.what());
                }
            }
            continue;
        }
        if (std::regex_match(line, m, layer_re)) {
            Section s;
            s.layer = std::stoi(m[1]);
            s.operands = m[2].matched ? std::stoi(m[2]) : 1;
            s.line = number;
            sections.push_back(std::move(s));
            in_layers = true;
            continue;
        }
        if (!in_layers) continue;
        if (starts_with(line, "ESTIMATED LATENCY") || starts_with(line, "SUMMARY OF OPS") ||
            starts_with(line, "CLASSIFICATION LAYER")) {
            in_layers = false;
            continue;
        }
        std::string trimmed = line;
        trimmed.erase(0, trimmed.find_first_not_of(' '));
        if (trimmed.empty() || is_label_line(trimmed)) continue;
        Section& cur = sections.back();
        try {
            if (is_array_line(trimmed)) {
                if (!cur.blocks.empty()) append_ints(trimmed, cur.blocks.back());
                continue;
            }
            Block b;
            b.header = trimmed;
            b.line = number;
            if (starts_with(trimmed, "BIAS:") && !contains(trimmed, "None")) append_ints(trimmed.substr(5), b);
            cur.blocks.push_back(std::move(b));
        } catch (const std::logic_error& e) {  // std::stoll: no digits or out of range
            throw std::runtime_error(where() + ": bad number in '" + trimmed + "'");
        }
    }

    if (config.empty()) throw std::runtime_error(source + ": no per-layer configuration table");
    GeneratorLog log;
    const CaseBuilder builder(config, avg_rounding);
    for (const Section& s : sections) {
        std::string reason;
        std::optional<LogLayerCase> c;
        try {
            c = builder.build(s, reason);
        } catch (const std::exception& e) {
            reason = e.what();
        }
        if (c)
            log.layers.push_back(std::move(*c));
        else
            log.skipped.push_back("layer " + std::to_string(s.layer) + " (" + source + ":" + std::to_string(s.line) +
                                  "): " + reason);
    }
    return log;
}

}  // namespace ai8x::reference
