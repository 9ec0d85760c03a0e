#include "model/engine/kernel_fetch.h"

#include <algorithm>

#include <string>

namespace ai8x {

namespace {

constexpr uint32_t kCalcx4Outputs = 4;  // calcx4: four outputs at once, one per kernel block (the feature's name)

// calcx4 (MAX78002): the generator splits a layer's kernels (counted from the
// layer's first kernel word) into four consecutive blocks of `calcx4_block`
// kernels and stores block b at b * block_stride + (first word / 4), so that
// four outputs can read their kernels from four parts at once (izer
// apbaccess.write_kern with calc_x4). `word` is the word the plain layout
// would read.
// Kernel number (counted from the layer's first) of output `o`, pass `j`: o * passes + j;
// calcx4 computes four outputs at once, output o from block o % 4, where its
// passes follow those of outputs o % 4, o % 4 + 4, ... (measured: with the plain
// order t-test-x4-multipass5m8 gives output 4's values as output 1 and so on).
uint64_t calcx4_kernel(const LayerConfig& c, uint32_t o, uint32_t j, uint32_t passes) {
    if (!c.calcx4 || c.calcx4_block == 0) return uint64_t{o} * passes + j;
    return uint64_t{o % kCalcx4Outputs} * c.calcx4_block + uint64_t{o / kCalcx4Outputs} * passes + j;
}

uint64_t calcx4_word(const LayerConfig& c, uint64_t word, uint32_t block_stride) {
    const uint64_t first = c.mask_start / 8;  // the layer's first kernel word (mask address in bits)
    if (word < first || c.calcx4_block == 0) return word;
    const uint64_t i = word - first;
    return i / c.calcx4_block * block_stride + i % c.calcx4_block + first / kCalcx4Outputs;
}

// Depth-wise: in pass j, processor i convolves its input channel with the
// kernel at the pass's address (what a convolution would read for output 0 of
// pass j) into output channel j * processors + i. As a dense weight set every
// other (processor, pass) weighs 0 for that output: nothing is summed across
// processors.
LayerWeights spread_depthwise(const LayerWeights& own) {
    LayerWeights w;
    w.processors = own.processors;
    w.passes = own.passes;
    w.taps = own.taps;
    w.processor_index = own.processor_index;
    w.outputs = own.processors * own.passes;
    w.values.assign(static_cast<std::size_t>(w.outputs) * w.processors * w.passes * w.taps, 0);
    if (own.outputs == 0) return w;
    for (uint32_t j = 0; j < own.passes; ++j)
        for (uint32_t i = 0; i < own.processors; ++i) {
            const uint32_t o = j * own.processors + i;
            for (uint32_t t = 0; t < w.taps; ++t)
                w.values[((static_cast<std::size_t>(o) * w.processors + i) * w.passes + j) * w.taps + t] =
                    own.at(0, i, j, t);
        }
    return w;
}

}  // namespace

LayerWeights fetch_weights(const AcceleratorState& state, const LayerConfig& c, std::vector<EngineWarning>& warnings) {
    LayerWeights w;
    for (std::size_t i = 0; i < c.processors.size(); ++i)
        if (c.processors[i].mask_enabled) w.processor_index.push_back(static_cast<int>(i));
    w.outputs = c.channel_positions * c.output_passes;
    w.processors = static_cast<uint32_t>(w.processor_index.size());
    w.passes = c.passes;
    w.taps = c.kernel_rows * c.kernel_cols;
    w.values.assign(static_cast<std::size_t>(w.outputs) * w.processors * w.passes * w.taps, 0);

    if (c.bypass) {  // no kernel memory is read: every weight is 1
        std::fill(w.values.begin(), w.values.end(), int8_t{1});
        return c.depthwise ? spread_depthwise(w) : w;
    }
    const uint32_t bits = c.weight_bits;
    const uint32_t slot = c.kernel_slot_bytes;
    const uint32_t kernel_words = state.cfg.kernel_mem.words;
    const uint32_t kernel_block_stride = state.cfg.kernel_mem.calcx4_block_stride;
    // Every weight of the layer is one field of one byte in the same format, so
    // decoding is a table look-up: (sub-index, byte) -> weight, built once from
    // arith::unpack_weight.
    const uint32_t fields_per_byte = 8 / bits;
    std::vector<int8_t> decoded(std::size_t{fields_per_byte} * 256);
    for (uint32_t sub = 0; sub < fields_per_byte; ++sub)
        for (uint32_t byte = 0; byte < 256; ++byte) {
            const int8_t v = arith::unpack_weight(static_cast<uint8_t>(byte), static_cast<int>(sub), c.weight_format);
            // Binary 1-bit weights: the stored 0/-1 stand for +1/-1.
            decoded[sub * 256 + byte] = c.binary_weights ? static_cast<int8_t>(2 * v + 1) : v;
        }
    for (uint32_t i = 0; i < w.processors; ++i) {
        const LayerProcessor& p = c.processors[w.processor_index[i]];
        const std::vector<KernelWord>& mem = state.kernel[p.global];
        bool out_of_range = false;
        bool any_written = false;  // a kernel word of this layer that some load wrote
        const std::vector<uint8_t>& written = state.kernel_written[p.global];
        uint64_t first_word = ~uint64_t{0};
        for (uint32_t o = 0; o < w.outputs; ++o) {
            for (uint32_t j = 0; j < w.passes; ++j) {
                const uint64_t address = c.mask_start + calcx4_kernel(c, o, j, w.passes) * bits;
                if (address > c.mask_end) continue;
                const uint64_t first_byte = (address >> 3) * slot + c.oned_start_byte;
                const int8_t* decode = &decoded[std::size_t{(address & 7) / bits} * 256];
                int8_t* dst = &w.values[((static_cast<std::size_t>(o) * w.processors + i) * w.passes + j) * w.taps];
                for (uint32_t t = 0; t < w.taps; ++t) {
                    // Taps are stored last-first in the byte stream.
                    const uint64_t byte = first_byte + (slot - 1 - t);
                    const uint64_t word = c.calcx4 ? calcx4_word(c, byte / 9, kernel_block_stride) : byte / 9;
                    if (word >= kernel_words) {
                        out_of_range = true;
                        continue;
                    }
                    dst[t] = decode[mem[word][8 - byte % 9]];
                    any_written = any_written || written[word];
                    first_word = std::min(first_word, word);
                }
            }
        }
        if (!any_written && first_word != ~uint64_t{0})
            warnings.push_back({p.quadrant, c.layer, "LREG_ENA",
                                "processor " + std::to_string(p.local) +
                                    " is enabled but none of its kernel words from " + std::to_string(first_word) +
                                    " (mask start " + to_hex(c.mask_start) +
                                    ") was ever written; it multiplies with zeros",
                                "processor_without_kernels"});
        if (out_of_range)
            warnings.push_back({p.quadrant, c.layer, "LREG_MCNT",
                                "processor " + std::to_string(p.local) +
                                    ": mask addresses reach beyond kernel memory; missing weights are 0",
                                "kernel_beyond_memory"});
    }
    if (c.depthwise) return spread_depthwise(w);
    return w;
}

}  // namespace ai8x
