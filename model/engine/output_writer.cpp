#include "model/engine/output_writer.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace ai8x {

OutputWriter::OutputWriter(AcceleratorState& state, const LayerConfig& cfg, std::vector<EngineWarning>& warnings)
    : state_(state), cfg_(cfg), writes_(state.data_sram_arrays.size(), 0), warnings_(warnings) {
    word_bits_ = state.cfg.data_sram.pointer_shift();
}

// The warnings are out of line so that locate(), called once per output
// value, stays small enough to be inlined into the writes.
void OutputWriter::warn_sink_outside(int quadrant, uint64_t start, uint32_t t, uint64_t word_offset) {
    if (!warned_)
        warnings_.push_back({quadrant, cfg_.layer, "LREG_WPTR_BASE",
                             "write pointer " + to_hex(start) + " + " + std::to_string(word_offset) +
                                 " (output channel " + std::to_string(t) +
                                 ") is outside data memory; further out-of-range writes dropped",
                             "write_beyond_memory"});
    warned_ = true;
}

void OutputWriter::warn_beyond_memory(int quadrant, uint64_t pointer, uint32_t t) {
    if (!warned_)
        warnings_.push_back({quadrant, cfg_.layer, "LREG_WPTR_BASE",
                             "write pointer " + to_hex(pointer) + " (output channel " + std::to_string(t) +
                                 ") is beyond data memory; further out-of-range writes dropped",
                             "write_beyond_memory"});
    warned_ = true;
}

inline bool OutputWriter::locate(int quadrant, uint32_t base, uint32_t t, uint64_t word_offset, uint32_t*& word,
                                 uint8_t** written) {
    if (sink_) {
        // The ring wraps the offset inside the instance; the instance bits stay put.
        const uint64_t start = base + uint64_t{t / 4} * cfg_.write_group_offset;
        const uint64_t instance = start >> word_bits_;
        const uint64_t offset = (start & ((uint64_t{1} << word_bits_) - 1)) + word_offset;
        word = instance < state_.data_sram.size() ? sink_->word(static_cast<uint32_t>(instance), offset) : nullptr;
        last_instance_ = static_cast<uint32_t>(instance);
        if (word) return true;
        warn_sink_outside(quadrant, start, t, word_offset);
        return false;
    }
    const uint64_t pointer = base + uint64_t{t / 4} * cfg_.write_group_offset + word_offset;
    const uint64_t instance = pointer >> word_bits_;
    const uint64_t index = pointer & ((uint64_t{1} << word_bits_) - 1);
    if (instance >= state_.data_sram.size()) {
        warn_beyond_memory(quadrant, pointer, t);
        return false;
    }
    word = &state_.data_sram[instance][index];
    last_instance_ = static_cast<uint32_t>(instance);
    if (written) *written = &state_.data_written[instance][index];
    return true;
}

void OutputWriter::write8(int quadrant, uint32_t base, uint32_t t, uint64_t word_offset, int8_t value) {
    uint32_t* word = nullptr;
    uint8_t* written = nullptr;
    if (!locate(quadrant, base, t, word_offset, word, &written)) return;
    if (written) *written = 1;
    count_write();
    const unsigned shift = 8 * (t % 4);
    *word = (*word & ~(0xffu << shift)) | (static_cast<uint32_t>(static_cast<uint8_t>(value)) << shift);
}

namespace {

// Byte lanes lane .. lane + N - 1 of the words of a stretch, from N values
// per word (values[m * value_stride + k] into lane + k of word m).
template <unsigned N>
void write_lanes(const OutputWriter::Stretch& s, unsigned lane, const int8_t* values, std::size_t value_stride,
                 uint64_t stride) {
    const unsigned shift = 8 * lane;
    const uint32_t lanes = N == 4 ? 0xffffffffu : ((1u << (8 * N)) - 1) << shift;
    for (std::size_t m = 0; m < s.count; ++m) {
        const int8_t* v = values + m * value_stride;
        uint32_t bytes = 0;
        for (unsigned k = 0; k < N; ++k) bytes |= static_cast<uint32_t>(static_cast<uint8_t>(v[k])) << (8 * k);
        const uint64_t i = m * stride;
        s.written[i] = 1;
        s.words[i] = (s.words[i] & ~lanes) | (bytes << shift);
    }
}

// All four lanes: each word is the four values as they lie in memory (value k
// in byte k, lane k, on a little-endian host), stored whole; consecutive
// words get their written flags in one fill.
void write_words(const OutputWriter::Stretch& s, const int8_t* values, std::size_t value_stride, uint64_t stride) {
    if (stride == 1) {
        for (std::size_t m = 0; m < s.count; ++m) std::memcpy(s.words + m, values + m * value_stride, 4);
        std::memset(s.written, 1, s.count);
        return;
    }
    for (std::size_t m = 0; m < s.count; ++m) {
        std::memcpy(s.words + m * stride, values + m * value_stride, 4);
        s.written[m * stride] = 1;
    }
}

constexpr bool kLittleEndianHost = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;

}  // namespace

OutputWriter::Stretch OutputWriter::stretch(uint32_t base, uint32_t t, uint64_t first, uint64_t stride,
                                            std::size_t count) {
    Stretch s;
    const uint64_t group = base + uint64_t{t / 4} * cfg_.write_group_offset;
    const uint64_t low_mask = (uint64_t{1} << word_bits_) - 1;
    if (sink_) {
        const uint64_t instance = group >> word_bits_;
        const uint64_t offset = (group & low_mask) + first;
        if (instance >= state_.data_sram.size()) return s;
        s.instance = static_cast<uint32_t>(instance);
        s.words = sink_->span(s.instance, offset, offset + (count - 1) * stride, s.written);
        s.count = s.words ? count : 0;
        return s;
    }
    const uint64_t pointer = group + first;
    const uint64_t instance = pointer >> word_bits_, index = pointer & low_mask;
    if (instance >= state_.data_sram.size() || index >= state_.data_sram[instance].size()) return s;
    const uint64_t room = state_.data_sram[instance].size() - index;  // words up to the instance's end
    s.count = stride == 0 ? count : static_cast<std::size_t>(std::min<uint64_t>(count, (room - 1) / stride + 1));
    s.instance = static_cast<uint32_t>(instance);
    s.words = &state_.data_sram[instance][index];
    s.written = &state_.data_written[instance][index];
    return s;
}

bool OutputWriter::series_stored(uint32_t base, uint32_t t, uint64_t first, uint64_t stride, std::size_t count) {
    for (std::size_t k = 0; k < count;) {
        const Stretch s = stretch(base, t, first + k * stride, stride, count - k);
        if (s.count == 0) return false;
        k += s.count;
    }
    return true;
}

void OutputWriter::write8_series(int quadrant, uint32_t base, uint32_t t, uint64_t first, uint64_t stride,
                                 const int8_t* values, std::size_t value_stride, std::size_t count) {
    const unsigned shift = 8 * (t % 4);
    const uint32_t keep = ~(0xffu << shift);
    // Each stretch of the series that lies in one piece of storage is written
    // in one loop: the same words, values, order and counts as write8() one
    // by one, without finding each word again. A word outside storage goes
    // through write8() (which warns and drops it), and so does every word of
    // a series a ring does not store in one piece.
    for (std::size_t k = 0; k < count;) {
        const Stretch s = stretch(base, t, first + k * stride, stride, count - k);
        if (s.count == 0) {
            const std::size_t end = sink_ ? count : k + 1;
            for (; k < end; ++k) write8(quadrant, base, t, first + k * stride, values[k * value_stride]);
            continue;
        }
        for (std::size_t n = 0; n < s.count; ++n) {
            const uint64_t i = n * stride;
            const uint8_t v = static_cast<uint8_t>(values[(k + n) * value_stride]);
            s.written[i] = 1;
            s.words[i] = (s.words[i] & keep) | (static_cast<uint32_t>(v) << shift);
        }
        last_instance_ = s.instance;
        writes_[last_instance_] += s.count;
        k += s.count;
    }
}

void OutputWriter::write8_group(int quadrant, uint32_t base, uint32_t t, unsigned n, uint64_t first, uint64_t stride,
                                const int8_t* values, std::size_t value_stride, std::size_t count) {
    // A series with a word outside storage warns about the first such write
    // of the first position: channel by channel, as the hardware order has it.
    if (!series_stored(base, t, first, stride, count)) {
        for (unsigned k = 0; k < n; ++k)
            write8_series(quadrant, base, t + k, first, stride, values + k, value_stride, count);
        return;
    }
    for (std::size_t p = 0; p < count;) {
        const Stretch s = stretch(base, t, first + p * stride, stride, count - p);
        const int8_t* v = values + p * value_stride;
        switch (n) {
            case 1: write_lanes<1>(s, t % 4, v, value_stride, stride); break;
            case 2: write_lanes<2>(s, t % 4, v, value_stride, stride); break;
            case 3: write_lanes<3>(s, t % 4, v, value_stride, stride); break;
            default:
                if (kLittleEndianHost)
                    write_words(s, v, value_stride, stride);
                else
                    write_lanes<4>(s, t % 4, v, value_stride, stride);
                break;
        }
        last_instance_ = s.instance;
        writes_[last_instance_] += uint64_t{s.count} * n;
        p += s.count;
    }
}

void OutputWriter::write32(int quadrant, uint32_t base, uint32_t t, uint64_t word_offset, int32_t value) {
    uint32_t* word = nullptr;
    uint8_t* written = nullptr;
    if (!locate(quadrant, base, t, word_offset + t % 4, word, &written)) return;
    if (written) *written = 1;
    count_write();
    *word = static_cast<uint32_t>(value);
}

OutputWriter::~OutputWriter() {
    const auto layer = static_cast<std::size_t>(cfg_.layer);
    for (std::size_t i = 0; i < writes_.size(); ++i)
        if (writes_[i]) state_.data_sram_arrays[i].activity.by_layer[layer].writes += writes_[i];
}

bool OutputWriter::read8(int quadrant, uint32_t base, uint32_t t, uint64_t word_offset, int8_t& value) {
    uint32_t* word = nullptr;
    if (!locate(quadrant, base, t, word_offset, word)) return false;
    value = static_cast<int8_t>((*word >> (8 * (t % 4))) & 0xffu);
    return true;
}

bool OutputWriter::read32(int quadrant, uint32_t base, uint32_t t, uint64_t word_offset, int32_t& value) {
    uint32_t* word = nullptr;
    if (!locate(quadrant, base, t, word_offset + t % 4, word)) return false;
    value = static_cast<int32_t>(*word);
    return true;
}

}  // namespace ai8x
