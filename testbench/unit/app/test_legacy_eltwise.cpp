// Pins down why t-test-multilayer-eltwise is listed in
// testbench/conformance/expected_failures.txt (issue #4).
//
// Layers 1 and 2 of that vector are two-operand element-wise passthroughs
// (add, then xor). The generator built its known answer without --legacy-test,
// so its Python model takes the operands as channel halves of the previous
// output. The hardware (and our engine) reads operand i as every i-th pixel of
// the same channel, which is what the generator models with --legacy-test.
//
// The test recomputes both readings from the log's layer-0 output with the
// reference model (not the engine), shows that the log follows the channel
// halves, then regenerates sampleoutput.h from the per-pixel reading and runs
// the firmware: the regenerated copy passes, the shipped vector fails.
//
// Each TEST_CASE runs in its own process under ctest; the two that simulate
// run one design each, as SystemC requires.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "testbench/reference/generator_log.h"
#include "testbench/reference/reference_layer.h"
#include "app/run_options.h"
#include "testbench/unit/app/app_test_support.h"
#include "testbench/unit/test_support.h"
#include "build_paths.h"

using namespace ai8x;
using namespace ai8x::reference;
using namespace ai8x::test;
namespace fs = std::filesystem;

namespace {

const fs::path kEltwiseVector = fs::path(AI8XSIM_SHARED_DIR) / "vectors" / "t-test-multilayer-eltwise";

GeneratorLog load_log() {
    std::istringstream text(read_gzip(kEltwiseVector / "log.txt.gz"));
    return parse_generator_log(text, "t-test-multilayer-eltwise/log.txt.gz");
}

const LogLayerCase& layer(const GeneratorLog& log, int number) {
    for (const LogLayerCase& c : log.layers)
        if (c.layer == number) return c;
    FAIL("the log has no usable layer " << number);
    throw std::logic_error("unreachable");
}

bool same(const Tensor& a, const Tensor& b) {
    return a.channels == b.channels && a.height == b.height && a.width == b.width && a.values == b.values;
}

int differing_values(const Tensor& a, const Tensor& b) {
    REQUIRE(a.size() == b.size());
    int n = 0;
    for (std::size_t i = 0; i < a.size(); ++i) n += a.values[i] != b.values[i];
    return n;
}

// The hardware reading (generator --legacy-test): operand i of output pixel p
// is pixel count*p + i of the same channel of `prev`, pixels numbered row by
// row. Each operand keeps prev's channel count and has the layer's shape.
std::vector<Tensor> per_pixel_operands(const Tensor& prev, int count, int height, int width) {
    const std::size_t plane = static_cast<std::size_t>(prev.height) * prev.width;
    REQUIRE(plane == static_cast<std::size_t>(count) * height * width);
    std::vector<Tensor> ops(count, Tensor(prev.channels, height, width));
    for (int c = 0; c < prev.channels; ++c)
        for (std::size_t p = 0; p < plane / count; ++p)
            for (int i = 0; i < count; ++i)
                ops[i].values[c * plane / count + p] = prev.values[c * plane + count * p + i];
    return ops;
}

// The generator's default reading: operand i is the i-th block of prev's
// channels, reshaped to (-1, height, width) as its Python model does.
std::vector<Tensor> channel_block_operands(const Tensor& prev, int count, int height, int width) {
    REQUIRE(prev.channels % count == 0);
    const std::size_t chunk = prev.size() / count;
    const std::size_t plane = static_cast<std::size_t>(height) * width;
    REQUIRE(chunk % plane == 0);
    std::vector<Tensor> ops;
    for (int i = 0; i < count; ++i) {
        Tensor t(static_cast<int>(chunk / plane), height, width);
        std::copy(prev.values.begin() + i * chunk, prev.values.begin() + (i + 1) * chunk, t.values.begin());
        ops.push_back(std::move(t));
    }
    return ops;
}

enum class Reading { PerPixel, ChannelBlocks };

// Layer `c` computed by the reference model from `prev` with the given operand reading.
Tensor run_with(const LogLayerCase& c, const Tensor& prev, Reading reading) {
    const int count = static_cast<int>(c.inputs.size());
    REQUIRE(count > 1);
    const int h = c.inputs[0].height, w = c.inputs[0].width;
    const auto ops = reading == Reading::PerPixel ? per_pixel_operands(prev, count, h, w)
                                                  : channel_block_operands(prev, count, h, w);
    return run_layer(c.params, ops, c.weights, c.bias);
}

// --- sampleoutput.h: { address, mask, count, count words }... terminated by 0.
struct OutputBlock {
    uint32_t address = 0;
    uint32_t mask = 0;
    std::vector<uint32_t> words;
};

std::vector<OutputBlock> read_sample_output(const fs::path& file) {
    std::ifstream in(file);
    REQUIRE(in);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    const std::size_t start = text.find("#define SAMPLE_OUTPUT");
    REQUIRE(start != std::string::npos);
    std::vector<uint32_t> w;
    static const std::regex hex("0x([0-9a-fA-F]+)");
    for (auto it = std::sregex_iterator(text.begin() + start, text.end(), hex); it != std::sregex_iterator(); ++it)
        w.push_back(static_cast<uint32_t>(std::stoul((*it)[1], nullptr, 16)));
    std::vector<OutputBlock> blocks;
    std::size_t k = 0;
    while (k < w.size() && w[k] != 0) {
        REQUIRE(k + 3 <= w.size());
        OutputBlock b;
        b.address = w[k];
        b.mask = w[k + 1];
        const std::size_t len = w[k + 2];
        k += 3;
        REQUIRE(k + len <= w.size());
        b.words.assign(w.begin() + k, w.begin() + k + len);
        k += len;
        blocks.push_back(std::move(b));
    }
    REQUIRE(k + 1 == w.size());  // exactly the terminating 0 is left
    return blocks;
}

// This vector's layout: every block has a full mask and holds one word per
// pixel; byte b of block g is channel 4g + b. (Checked below against the log.)
constexpr int kBytesPerWord = 4;

Tensor decode(const std::vector<OutputBlock>& blocks, int height, int width) {
    Tensor t(static_cast<int>(blocks.size()) * kBytesPerWord, height, width);
    const std::size_t plane = static_cast<std::size_t>(height) * width;
    for (std::size_t g = 0; g < blocks.size(); ++g) {
        REQUIRE(blocks[g].mask == 0xffffffffu);
        REQUIRE(blocks[g].words.size() == plane);
        for (std::size_t p = 0; p < plane; ++p)
            for (int b = 0; b < kBytesPerWord; ++b)
                t.values[(g * kBytesPerWord + b) * plane + p] = static_cast<int8_t>(blocks[g].words[p] >> (8 * b));
    }
    return t;
}

// `layout` (addresses, masks, counts) refilled with the bytes of `t`.
std::vector<OutputBlock> encode(std::vector<OutputBlock> layout, const Tensor& t) {
    const std::size_t plane = static_cast<std::size_t>(t.height) * t.width;
    REQUIRE(static_cast<int>(layout.size()) * kBytesPerWord == t.channels);
    for (std::size_t g = 0; g < layout.size(); ++g)
        for (std::size_t p = 0; p < plane; ++p) {
            uint32_t word = 0;
            for (int b = 0; b < kBytesPerWord; ++b)
                word |= (static_cast<uint32_t>(t.values[(g * kBytesPerWord + b) * plane + p]) & 0xffu) << (8 * b);
            layout[g].words[p] = word;
        }
    return layout;
}

void write_sample_output(const fs::path& file, const std::vector<OutputBlock>& blocks) {
    std::vector<uint32_t> w;
    for (const OutputBlock& b : blocks) {
        w.push_back(b.address);
        w.push_back(b.mask);
        w.push_back(static_cast<uint32_t>(b.words.size()));
        w.insert(w.end(), b.words.begin(), b.words.end());
    }
    w.push_back(0);
    std::ofstream out(file);
    REQUIRE(out);
    out << "// Regenerated by test_legacy_eltwise: layer 2 with per-pixel element-wise\n"
           "// operands (generator --legacy-test), computed from the log's layer-0 output.\n\n"
           "#define SAMPLE_OUTPUT { \\\n";
    for (std::size_t i = 0; i < w.size(); ++i) {
        if (i % 8 == 0) out << "  ";
        out << "0x" << std::hex << std::setw(8) << std::setfill('0') << w[i];
        out << (i + 1 == w.size() ? " \\\n" : (i % 8 == 7 ? ", \\\n" : ", "));
    }
    out << "}\n";
    REQUIRE(out.good());
}

// Layer 2's output when both element-wise layers read their operands per pixel.
Tensor per_pixel_layer2(const GeneratorLog& log) {
    const Tensor l1 = run_with(layer(log, 1), layer(log, 0).expected, Reading::PerPixel);
    return run_with(layer(log, 2), l1, Reading::PerPixel);
}

}  // namespace

TEST_CASE("legacy eltwise: the log's known answer reads operands as channel halves and not per pixel",
          "[legacy-eltwise]") {
    const GeneratorLog log = load_log();
    const LogLayerCase& l0 = layer(log, 0);
    const LogLayerCase& l1 = layer(log, 1);
    const LogLayerCase& l2 = layer(log, 2);
    REQUIRE(l1.inputs.size() == 2);
    REQUIRE(l2.inputs.size() == 2);
    REQUIRE(l1.params.op == Op::Passthrough);
    REQUIRE(l2.params.op == Op::Passthrough);

    // The log's printed layer-1 operands are the channel halves of its layer-0 output ...
    const auto halves = channel_block_operands(l0.expected, 2, l1.inputs[0].height, l1.inputs[0].width);
    CHECK(same(halves[0], l1.inputs[0]));
    CHECK(same(halves[1], l1.inputs[1]));
    // ... and its layer 1 and 2 outputs follow from that reading.
    CHECK(same(run_with(l1, l0.expected, Reading::ChannelBlocks), l1.expected));
    CHECK(same(run_with(l2, l1.expected, Reading::ChannelBlocks), l2.expected));

    // The per-pixel reading (what the hardware fetches) gives other values.
    const Tensor pp1 = run_with(l1, l0.expected, Reading::PerPixel);
    const int diff1 = differing_values(pp1, l1.expected);
    const int diff2 = differing_values(per_pixel_layer2(log), l2.expected);
    INFO("per-pixel vs log: layer 1 differs in " << diff1 << " of " << pp1.size() << " values, layer 2 in " << diff2
                                                 << " of " << l2.expected.size());
    CHECK(diff1 > 0);
    CHECK(diff2 > 0);

    // The shipped sampleoutput.h is the log's layer 2 (this also checks the decoding).
    const auto shipped = read_sample_output(kEltwiseVector / "sampleoutput.h");
    CHECK(same(decode(shipped, l2.expected.height, l2.expected.width), l2.expected));
}

TEST_CASE("legacy eltwise: with sampleoutput.h recomputed per pixel the firmware passes", "[legacy-eltwise]") {
    const GeneratorLog log = load_log();
    const Tensor expected = per_pixel_layer2(log);
    const auto shipped = read_sample_output(kEltwiseVector / "sampleoutput.h");
    const auto regenerated = encode(shipped, expected);

    fs::path work = scratch("legacy-eltwise");
    const fs::path copy = work / "t-test-multilayer-eltwise-legacy";
    fs::remove_all(copy);
    fs::copy(kEltwiseVector, copy, fs::copy_options::recursive);
    write_sample_output(copy / "sampleoutput.h", regenerated);
    // Round trip: what was written reads back as the per-pixel result.
    REQUIRE(same(decode(read_sample_output(copy / "sampleoutput.h"), expected.height, expected.width), expected));

    RunOptions o = run_options_for(copy.string(), work);
    CHECK(run_command(o) == kRunPass);
    const auto j = read_json(o.json_out);
    CHECK(j["result"] == "pass");
    fs::remove_all(work);
}

TEST_CASE("legacy eltwise: the shipped known answer fails on the hardware model", "[legacy-eltwise]") {
    fs::path work = scratch("legacy-eltwise-shipped");
    RunOptions o = run_options_for(kEltwiseVector.string(), work);
    CHECK(run_command(o) == kRunFail);
    const auto j = read_json(o.json_out);
    CHECK(j["result"] == "fail");
    CHECK(j["console"].get<std::string>().find("Data mismatch") != std::string::npos);
    fs::remove_all(work);
}
