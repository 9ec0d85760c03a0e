#include "model/engine/kernel_fetch.h"

#include "model/engine/host_cache.h"
#include "model/engine/weight_quads.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>

namespace ai8x {

namespace {

// Where the kernel of output `o`, input pass `j` starts: its mask address and
// the kernel memory words to add to the word that address selects. Plain
// layers walk the mask address through (output, pass) up to the mask end.
// calcx4 (MAX78002) computes four outputs at once, output o from block o % 4
// of the kernel memory (block b at b * block_stride words, izer
// apbaccess.write_kern with calc_x4); inside its block the kernels of outputs
// o % 4, o % 4 + 4, ... follow each other from the mask start address, each
// with its passes (izer kernels.py reorders the outputs so; measured on
// t-test-x4-multipass5m8: with outputs in plain order inside the blocks,
// output 4's values came out as output 1's). A block holds calcx4_block kernels.
struct KernelPlace {
    bool valid = false;
    uint64_t address = 0;
    uint64_t word_offset = 0;
};

KernelPlace kernel_place(const LayerConfig& c, uint32_t o, uint32_t j, uint32_t passes, uint32_t block_stride,
                         uint32_t quadrants) {
    KernelPlace k;
    if (c.quad_fanout) o /= quadrants;       // the quadrant's own kernel k of output k * quadrants + q
    if (!c.calcx4 || c.calcx4_block == 0) {  // no blocks: every kernel at its plain place
        k.address = c.mask_start + (uint64_t{o} * passes + j) * c.weight_bits;
        k.valid = k.address <= c.mask_end;
        return k;
    }
    const uint64_t in_block = uint64_t{o / kCalcx4Outputs} * passes + j;
    k.address = c.mask_start + in_block * c.weight_bits;
    k.word_offset = uint64_t{o % kCalcx4Outputs} * block_stride;
    k.valid = in_block < c.calcx4_block;
    return k;
}

// Reads kernels from one processor's kernel memory, noting what the layer's
// warnings need. Everything the loop reads is held in members (not reached
// through references): the int8_t stores of the weights may alias anything,
// and would otherwise make the compiler reload it on every tap.
struct KernelReader {
    const KernelWord* words;
    const uint8_t* written;
    uint64_t kernel_words;
    uint64_t word_offset = 0;  // added to every word: the kernel's calcx4 block (KernelPlace)
    bool out_of_range = false;
    bool any_written = false;  // a kernel word of this layer that some load wrote
    uint64_t first_word = ~uint64_t{0};

    // The word holding byte stream word `plain` (calcx4 moves it to its block).
    uint64_t word_of(uint64_t plain) const { return plain + word_offset; }

    // Decodes `taps` weights into dst[place[0..taps)]: taps are stored
    // last-first in the byte stream, so tap t is byte last_byte - t; byte b
    // sits in plain word b / 9 at KernelWord[b % 9]. Words beyond the memory
    // leave 0.
    template <typename T>
    void read(uint64_t last_byte, uint32_t taps, const int8_t* decode, T* dst, const std::size_t* place) {
        uint64_t plain = last_byte / 9;
        unsigned position = static_cast<unsigned>(last_byte % 9);
        uint64_t word = word_of(plain);
        for (uint32_t t = 0; t < taps; ++t) {
            if (word >= kernel_words) {
                out_of_range = true;
            } else {
                dst[place[t]] = decode[words[word][position]];
                any_written = any_written || written[word];
                first_word = std::min(first_word, word);
            }
            if (t + 1 == taps) break;
            if (position-- == 0) {  // the byte before is the last of the previous word
                position = 8;
                word = word_of(--plain);
            }
        }
    }
};

// The kernels of the weight processors when they lie back to back in the
// byte stream (every layout but calcx4 and the quad fast FIFO fan-out):
// kernel k (k = o * passes + j) at mask address mask_start + k * bits, the
// kernels up to the mask end. The mask registers are the layer's, so the
// range is the same for every processor: bytes [first, last] of its stream,
// read where they lie (kernel words are in stream order), and every weight is one table
// look-up, instead of the word and position arithmetic of KernelReader per
// tap. The same weights and flags as KernelReader::read over the same
// kernels; nullopt when the range reaches beyond kernel memory (KernelReader
// then decodes, leaving those weights 0).
struct KernelRun {
    uint32_t kernels = 0;     // kernels 0 .. kernels - 1 lie inside the mask range
    uint64_t first_word = 0;  // the words holding their bytes, first_word .. last_word
    uint64_t last_word = 0;
    std::size_t processor_bytes = 0;  // (last_word - first_word + 1) * 9
    // Per weight processor, where its stream bytes 9 * first_word,
    // 9 * first_word + 1, ... (whole words) are: locate_run() says.
    std::vector<const uint8_t*> start;
    std::unique_ptr<uint8_t[]> copy;  // the processors' bytes copied, where needed
};

std::optional<KernelRun> kernel_run(const LayerConfig& c, uint64_t kernel_words, uint32_t kernels) {
    KernelRun run;
    if (c.mask_end < c.mask_start || kernels == 0) return run;
    run.kernels = static_cast<uint32_t>(std::min<uint64_t>(kernels, (c.mask_end - c.mask_start) / c.weight_bits + 1));
    const uint64_t last_address = c.mask_start + uint64_t{run.kernels - 1} * c.weight_bits;
    const uint64_t first_byte = uint64_t{c.mask_start >> 3} * c.kernel_slot_bytes + c.oned_start_byte;
    const uint64_t last_byte = (last_address >> 3) * c.kernel_slot_bytes + c.oned_start_byte + c.kernel_slot_bytes - 1;
    run.first_word = first_byte / 9;
    run.last_word = last_byte / 9;
    if (run.last_word >= kernel_words) return std::nullopt;
    run.processor_bytes = (run.last_word - run.first_word + 1) * 9;
    return run;
}

// Finds weight processor i's bytes of the run: kernel words hold their
// bytes in fill order, back to back, so the run is read where it lies when
// 16 bytes after it are still memory (the column moves read up to 15 bytes
// past a row; what they read there goes nowhere); else from a copy with 16
// zeros after the last processor's.
static_assert(sizeof(KernelWord) == 9, "kernel words lie back to back, 9 bytes each");
void locate_run(KernelRun& run, uint32_t i, uint32_t processors, const std::vector<KernelWord>& memory) {
    const uint8_t* bytes = reinterpret_cast<const uint8_t*>(memory.data()) + run.first_word * 9;
    run.start.resize(processors);
    if ((run.last_word + 1) * 9 + 16 <= memory.size() * 9) {
        run.start[i] = bytes;
        return;
    }
    const std::size_t copied = processors * run.processor_bytes;
    if (!run.copy) {
        run.copy.reset(new uint8_t[copied + 16]);
        std::memset(run.copy.get() + copied, 0, 16);
    }
    uint8_t* own = run.copy.get() + i * run.processor_bytes;
    std::memcpy(own, bytes, run.processor_bytes);
    run.start[i] = own;
}

// The last byte of kernel 0 in a processor's run bytes.
std::size_t first_kernel_last_byte(const LayerConfig& c, const KernelRun& run) {
    return std::size_t{c.mask_start >> 3} * c.kernel_slot_bytes + c.oned_start_byte + c.kernel_slot_bytes - 1 -
           run.first_word * 9;
}

// The steps of one block from their columns, in the layout of T: int8
// quads or int16 pairs (weight_quads.h).
void interleave_steps(const uint8_t* columns, const std::vector<uint32_t>& offsets, int8_t* out) {
    interleave_quads(columns, offsets.data(), offsets.size() / 4, out);
}
void interleave_steps(const uint8_t* columns, const std::vector<uint32_t>& offsets, int16_t* out) {
    interleave_pairs(columns, offsets.data(), offsets.size() / 2, out);
}

// 8-bit weights into the kernel's layout, whole blocks at a time: int8 quads
// or int16 pairs (kGroup values of an output side by side). Applies when the
// places are that layout (lane_step kGroup, steps of kGroup * kBlockOutputs
// values) and every weight of lane 0 lies in the first kGroup values of its
// step: then step s of a block is kGroup columns (a weight of each of the
// block's outputs) interleaved. Per block, each processor's kernel bytes of the block's
// outputs (stride bytes an output, back to back from kernel 0's first byte)
// are turned into columns once; every step of the block is then written
// from its four columns, zeros where no weight goes (the padding
// zero_packed() leaves zero). Returns the outputs done, 0 when the places do
// not fit.
template <typename T>
uint32_t decode_column_blocks(const LayerConfig& c, const KernelRun& run, const WeightPlaces<T>& to,
                              uint32_t processors, uint32_t whole, std::size_t last) {
    constexpr std::size_t kGroup = std::is_same_v<T, int8_t> ? 4 : 2, kStep = kGroup * kBlockOutputs;
    if (to.lane_step != kGroup || to.block_step % kStep != 0 || whole < kBlockOutputs) return 0;
    const std::size_t slot = c.kernel_slot_bytes, taps = to.taps, passes = to.passes, stride = passes * slot;
    const std::size_t padded = (stride + 15) / 16 * 16;  // column positions per processor
    // Step s of a block takes value v from the column at byte offset
    // quad[kGroup * s + v] of `columns`; the column after the processors' is zeros.
    const std::size_t processor_columns = padded * kColumnBytes;
    const uint32_t zeros = static_cast<uint32_t>(processors * processor_columns);
    std::vector<uint32_t> quad(to.block_step / kStep * kGroup, zeros);
    for (std::size_t i = 0, m = 0; i < processors; ++i)
        for (std::size_t j = 0; j < passes; ++j)
            for (std::size_t t = 0; t < taps; ++t, ++m) {
                const std::size_t place = to.kernel_offset[m];
                if (place % kStep >= kGroup) return 0;
                quad[place / kStep * kGroup + place % kGroup] =
                    static_cast<uint32_t>(i * processor_columns + (j * slot + slot - 1 - t) * kColumnBytes);
            }
    // One buffer per call, not a thread_local one: ASan reported a thread_local
    // vector here as a stack-use-after-scope when several simulations ran on
    // threads of one process (unit_tests_app, "runs from several threads").
    std::vector<uint8_t> columns(std::size_t{zeros} + kColumnBytes);
    const std::size_t from = last + 1 - slot;  // kernel 0's first byte
    uint32_t o = 0;
    for (; o + kBlockOutputs <= whole; o += kBlockOutputs) {
        for (std::size_t i = 0; i < processors; ++i)
            bytes_to_columns(run.start[i] + from + o * stride, stride, stride, columns.data() + i * processor_columns);
        interleave_steps(columns.data(), quad, to.at + to.output(o));
    }
    return o;
}

// Zeroes the places of unset `to` from output `o`'s block on (o a multiple
// of kBlockOutputs: the blocks before are written in full).
template <typename T>
void zero_unset(const WeightPlaces<T>& to, uint32_t o) {
    const std::size_t from = to.output(o);
    if (to.unset > from) std::memset(to.at + from, 0, (to.unset - from) * sizeof(T));
}

// 8-bit weights: one field per byte, so kernel k's slot follows kernel k -
// 1's, and kernel k = o * passes + j lies at the same place of every
// processor's bytes: weight (o, i, j, t) is byte
// last + o * stride + j * slot - t of processor i's run (`last` kernel 0's
// last byte, `stride` = passes * slot). The outputs whose kernels all lie
// inside the mask range go a block at a time: per weight of the block's first
// output, its kBlockOutputs outputs' bytes are `stride` apart and their places
// lane_step apart, one short unrolled loop. The rest output by output, and the
// first kernels of an output the mask end cuts short alone. `Plain`: 8-bit
// two's complement (the table is the identity).
template <bool Plain, typename T>
void decode_byte_runs(const LayerConfig& c, const KernelRun& run, const int8_t* decode, const WeightPlaces<T>& to,
                      uint32_t processors) {
    const std::size_t slot = c.kernel_slot_bytes, taps = to.taps, passes = to.passes, stride = passes * slot;
    const std::size_t last = first_kernel_last_byte(c, run);
    const std::size_t weights = processors * passes * taps;
    std::vector<const uint8_t*> from(weights);  // weight m of output 0
    for (std::size_t i = 0, m = 0; i < processors; ++i)
        for (std::size_t j = 0; j < passes; ++j)
            for (std::size_t t = 0; t < taps; ++t) from[m++] = run.start[i] + last + j * slot - t;
    auto value = [decode](uint8_t byte) { return Plain ? static_cast<int8_t>(byte) : decode[byte]; };
    const uint8_t* const* first = from.data();
    const std::size_t *place = to.kernel_offset, lane_step = to.lane_step;
    const uint32_t whole = static_cast<uint32_t>(run.kernels / passes);
    uint32_t o = 0;
    if constexpr (Plain) o = decode_column_blocks(c, run, to, processors, whole, last);
    zero_unset(to, o);
    for (; o + kBlockOutputs <= whole; o += kBlockOutputs) {
        T* out = to.at + to.output(o);
        for (std::size_t m = 0; m < weights; ++m) {
            const uint8_t* src = first[m] + o * stride;
            T* dst = out + place[m];
            for (std::size_t lane = 0; lane < kBlockOutputs; ++lane) dst[lane * lane_step] = value(src[lane * stride]);
        }
    }
    for (; o < whole; ++o) {
        T* out = to.at + to.output(o);
        for (std::size_t m = 0; m < weights; ++m) out[place[m]] = value(first[m][o * stride]);
    }
    const std::size_t cut = run.kernels - std::size_t{whole} * passes;  // kernels of output `whole` in range
    if (cut == 0) return;
    T* out = to.at + to.output(whole);
    for (std::size_t i = 0; i < processors; ++i)
        for (std::size_t m = i * passes * taps, end = m + cut * taps; m < end; ++m)
            out[place[m]] = value(first[m][whole * stride]);
}

// 1-, 2- and 4-bit weights: 8 / bits kernels share a slot, each in its own
// field of every byte (its own decoding table).
template <typename T>
void decode_field_run(const LayerConfig& c, const KernelRun& run, const int8_t* table, const uint8_t* bytes,
                      std::ptrdiff_t last_offset, const WeightPlaces<T>& to, uint32_t i) {
    const uint32_t bits = c.weight_bits, slot = c.kernel_slot_bytes;
    const unsigned field_shift = bits == 4 ? 2 : bits == 2 ? 1 : 0;  // log2(bits)
    uint64_t address = c.mask_start;
    for (uint32_t k = 0, j = 0, o = 0; k < run.kernels; ++k, address += bits) {
        const uint8_t* last = bytes + (static_cast<std::ptrdiff_t>((address >> 3) * slot) + last_offset);
        const int8_t* decode = table + std::size_t{(address & 7) >> field_shift} * 256;
        T* out = to.at + to.output(o);
        const std::size_t* place = to.kernel(i) + std::size_t{j} * to.taps;
        for (uint32_t t = 0; t < to.taps; ++t) out[place[t]] = decode[*(last - t)];
        if (++j == to.passes) j = 0, ++o;
    }
}

// Decodes processor `i`'s kernels of a run of narrow weights into its places.
template <typename T>
void decode_narrow_run(const LayerConfig& c, const KernelRun& run, const int8_t* decoded, uint32_t i,
                       const WeightPlaces<T>& places) {
    // The slot's last byte, relative to the processor's run bytes (which
    // start at the run's first word): often negative, so it is added to an
    // index, never to the pointer (a wrapped unsigned offset is undefined
    // pointer arithmetic).
    const std::ptrdiff_t last_offset = static_cast<std::ptrdiff_t>(c.oned_start_byte + (c.kernel_slot_bytes - 1)) -
                                       static_cast<std::ptrdiff_t>(run.first_word * 9);
    decode_field_run(c, run, decoded, run.start[i], last_offset, places, i);
}

// Loads every cache line of the run's bytes and each weight processor's first
// written flag before the decoders read them (host_cache.h): the decoders
// turn a few lines of each processor into columns at a time and, with kernel
// memory no longer in the host's cache, waited for most lines one after the
// other (kws20_v3_1's weights stage: about 130 us, 266 before, of which most
// the first layers' misses).
void load_run(const AcceleratorState& state, const LayerConfig& c, const LayerWeights& w, const KernelRun& run) {
    for (uint32_t i = 0; i < w.processors; ++i) {
        const auto p = static_cast<std::size_t>(c.processors[static_cast<std::size_t>(w.processor_index[i])].global);
        load_lines(run.start[i], run.processor_bytes);
        load_lines(state.kernel_written[p].data() + run.first_word, 1);
    }
}

// Notes the words of a run as KernelReader would have read them.
void note_run(const KernelRun& run, KernelReader& reader) {
    reader.first_word = run.first_word;
    for (uint64_t word = run.first_word; word <= run.last_word && !reader.any_written; ++word)
        reader.any_written = reader.written[word] != 0;
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

// Broadcast depth-wise: processor p's result is written at byte position
// p - first, where first is the layer's first enabled processor rounded down to
// its word group, not at p's rank among the enabled processors. The generator
// relies on it: it points the write pointer at that group and spans XPCH_MAX
// from it to the last output processor (izer backend max7800x.py, LREG_WPTR_BASE
// from ffs(output map) & ~3, LREG_LCTL2 from fls(output map) minus that), and
// the output map equals the input map. So with processors 0x000f000f000f000f
// quadrant 1's four outputs are at positions 16..19 (its own memories), not 4..7.
// Returns the slots of w's outputs, empty where every output is at its rank.
std::vector<uint32_t> depthwise_slots(const LayerConfig& c, const LayerWeights& w,
                                      std::vector<EngineWarning>& warnings) {
    if (!c.broadcast || w.processors == 0) return {};
    constexpr uint32_t kBytesPerWord = 4;
    const uint32_t first = static_cast<uint32_t>(c.processors.front().global) / kBytesPerWord * kBytesPerWord;
    std::vector<uint32_t> slots(w.outputs);
    bool at_rank = true;
    for (uint32_t i = 0; i < w.processors; ++i) {
        const LayerProcessor& p = c.processors[static_cast<std::size_t>(w.processor_index[i])];
        const uint32_t position = static_cast<uint32_t>(p.global) - first;
        if (position >= c.channel_positions)
            warnings.push_back({p.quadrant, c.layer, "LREG_LCTL2",
                                "depth-wise processor " + std::to_string(p.local) + " lies at output position " +
                                    std::to_string(position) + ", beyond the " + std::to_string(c.channel_positions) +
                                    " positions XPCH_MAX spans; its output lands in the next pass's place",
                                "depthwise_beyond_span"});
        for (uint32_t j = 0; j < w.passes; ++j) {
            const uint32_t o = j * w.processors + i;
            slots[o] = j * c.channel_positions + position;
            at_rank = at_rank && slots[o] == o;
        }
    }
    if (at_rank) slots.clear();
    return slots;
}

LayerWeights depthwise_weights(const LayerConfig& c, const LayerWeights& own, std::vector<EngineWarning>& warnings) {
    LayerWeights w = spread_depthwise(own);
    w.slots = depthwise_slots(c, w, warnings);
    return w;
}

// The decoding table of a weight format: (field, byte) -> weight, from
// arith::unpack_weight, built at its first use and kept (it depends on
// nothing but the format).
const int8_t* decoding_table(arith::WeightFormat format, bool binary) {
    constexpr std::size_t kFormats = 5;  // arith::WeightFormat's values
    static std::once_flag built[kFormats][2];
    static std::vector<int8_t> tables[kFormats][2];
    const auto f = static_cast<std::size_t>(format);
    std::call_once(built[f][binary], [&] {
        const uint32_t fields_per_byte = 8 / static_cast<uint32_t>(arith::weight_bits(format));
        std::vector<int8_t>& table = tables[f][binary];
        table.resize(std::size_t{fields_per_byte} * 256);
        for (uint32_t sub = 0; sub < fields_per_byte; ++sub)
            for (uint32_t byte = 0; byte < 256; ++byte) {
                const int8_t v = arith::unpack_weight(static_cast<uint8_t>(byte), static_cast<int>(sub), format);
                // Binary 1-bit weights: the stored 0/-1 stand for +1/-1.
                table[sub * 256 + byte] = binary ? static_cast<int8_t>(2 * v + 1) : v;
            }
    });
    return tables[f][binary].data();
}

// The warnings of processor p's kernels, from what its reader saw.
void warn_about_kernels(const LayerConfig& c, const LayerProcessor& p, const KernelReader& reader,
                        std::vector<EngineWarning>& warnings) {
    if (!reader.any_written && reader.first_word != ~uint64_t{0})
        warnings.push_back({p.quadrant, c.layer, "LREG_ENA",
                            "processor " + std::to_string(p.local) + " is enabled but none of its kernel words from " +
                                std::to_string(reader.first_word) + " (mask start " + to_hex(c.mask_start) +
                                ") was ever written; it multiplies with zeros",
                            "processor_without_kernels"});
    if (reader.out_of_range)
        warnings.push_back({p.quadrant, c.layer, "LREG_MCNT",
                            "processor " + std::to_string(p.local) +
                                ": mask addresses reach beyond kernel memory; missing weights are 0",
                            "kernel_beyond_memory"});
}

// Decodes every weight processor's kernels from kernel memory into `to`
// (bypass and depth-wise spreading are the caller's).
template <typename T>
void decode_kernels(const AcceleratorState& state, const LayerConfig& c, const LayerWeights& w,
                    const WeightPlaces<T>& to, std::vector<EngineWarning>& warnings) {
    const uint32_t bits = c.weight_bits;
    const uint32_t slot = c.kernel_slot_bytes;
    const uint32_t kernel_words = state.cfg.kernel_mem.words;
    const uint32_t kernel_block_stride = state.cfg.kernel_mem.calcx4_block_stride;
    const uint32_t quadrants = state.cfg.quadrants;
    // Every weight of the layer is one field of one byte in the same format,
    // so decoding is a table look-up.
    const int8_t* decoded = decoding_table(c.weight_format, c.binary_weights);
    std::optional<KernelRun> run;
    if (!c.calcx4 && !c.quad_fanout && w.taps <= slot && (bits & (bits - 1)) == 0 && bits <= 8)
        run = kernel_run(c, kernel_words, w.outputs * w.passes);
    const bool gathered = run && run->kernels > 0;  // none in range: nothing read, every weight 0
    // Unset places are zeroed here unless decode_byte_runs() writes the first blocks in full.
    if (!gathered || bits != 8) zero_unset(to, 0);
    if (gathered) {
        for (uint32_t i = 0; i < w.processors; ++i)
            locate_run(*run, i, w.processors, state.kernel[c.processors[w.processor_index[i]].global]);
        load_run(state, c, w, *run);
        const bool plain = c.weight_format == arith::WeightFormat::Bits8 && !c.binary_weights;
        if (bits == 8 && plain) decode_byte_runs<true>(c, *run, decoded, to, w.processors);
        if (bits == 8 && !plain) decode_byte_runs<false>(c, *run, decoded, to, w.processors);
    }
    for (uint32_t i = 0; i < w.processors; ++i) {
        const LayerProcessor& p = c.processors[w.processor_index[i]];
        KernelReader reader{state.kernel[p.global].data(), state.kernel_written[p.global].data(), kernel_words};
        if (gathered && bits != 8) decode_narrow_run(c, *run, decoded, i, to);
        if (gathered) note_run(*run, reader);
        const std::size_t* kernel = to.kernel(i);
        for (uint32_t o = 0; o < w.outputs && !run; ++o) {
            if (c.quad_fanout && o % quadrants != static_cast<uint32_t>(p.quadrant)) continue;
            for (uint32_t j = 0; j < w.passes; ++j) {
                const KernelPlace place = kernel_place(c, o, j, w.passes, kernel_block_stride, quadrants);
                if (!place.valid) continue;
                const uint64_t first_byte = (place.address >> 3) * slot + c.oned_start_byte;
                const int8_t* decode = decoded + std::size_t{(place.address & 7) / bits} * 256;
                reader.word_offset = place.word_offset;
                reader.read(first_byte + (slot - 1), w.taps, decode, to.at + to.output(o),
                            kernel + std::size_t{j} * w.taps);
            }
        }
        warn_about_kernels(c, p, reader, warnings);
    }
}

}  // namespace

LayerWeights weight_shape(const LayerConfig& c) {
    LayerWeights w;
    for (std::size_t i = 0; i < c.processors.size(); ++i)
        if (c.processors[i].mask_enabled) w.processor_index.push_back(static_cast<int>(i));
    w.outputs = c.channel_positions * c.output_passes;
    w.processors = static_cast<uint32_t>(w.processor_index.size());
    w.passes = c.passes;
    w.taps = c.kernel_rows * c.kernel_cols;
    return w;
}

LayerWeights fetch_weights(const AcceleratorState& state, const LayerConfig& c, std::vector<EngineWarning>& warnings) {
    LayerWeights w = weight_shape(c);
    const std::size_t kernel_values = std::size_t{w.processors} * w.passes * w.taps;
    w.values.assign(w.outputs * kernel_values, 0);
    if (c.bypass) {  // no kernel memory is read: every weight is 1
        std::fill(w.values.begin(), w.values.end(), int8_t{1});
        return c.depthwise ? depthwise_weights(c, w, warnings) : w;
    }
    // The dense order: output o's kernels one after the other.
    std::vector<std::size_t> kernel_offset(kernel_values);
    for (std::size_t k = 0; k < kernel_values; ++k) kernel_offset[k] = k;
    decode_kernels<int8_t>(
        state, c, w,
        {w.values.data(), kBlockOutputs * kernel_values, kernel_values, kernel_offset.data(), w.passes, w.taps},
        warnings);
    return c.depthwise ? depthwise_weights(c, w, warnings) : w;
}

void decode_weights(const AcceleratorState& state, const LayerConfig& c, const LayerWeights& shape,
                    const WeightPlaces<int16_t>& to, std::vector<EngineWarning>& warnings) {
    decode_kernels(state, c, shape, to, warnings);
}

void decode_weights(const AcceleratorState& state, const LayerConfig& c, const LayerWeights& shape,
                    const WeightPlaces<int8_t>& to, std::vector<EngineWarning>& warnings) {
    decode_kernels(state, c, shape, to, warnings);
}

}  // namespace ai8x
