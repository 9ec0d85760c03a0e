#include "model/engine/output_writer.h"

#include <string>

namespace ai8x {

OutputWriter::OutputWriter(AcceleratorState& state, const LayerConfig& cfg, std::vector<EngineWarning>& warnings)
    : state_(state), cfg_(cfg), warnings_(warnings), writes_(state.data_sram_arrays.size(), 0) {
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

void OutputWriter::write8_series(int quadrant, uint32_t base, uint32_t t, uint64_t first, uint64_t stride,
                                 const int32_t* values, std::size_t count) {
    if (count == 0) return;
    const unsigned shift = 8 * (t % 4);
    const uint32_t keep = ~(0xffu << shift);
    const uint64_t group = base + uint64_t{t / 4} * cfg_.write_group_offset;
    const uint64_t low_mask = (uint64_t{1} << word_bits_) - 1;
    const uint64_t span_words = (count - 1) * stride;
    // The series is written in one loop when all its words lie in one stretch
    // of storage: the same words, values, order and counts as write8() one by
    // one, without finding each word again. Otherwise (a series crossing an
    // instance or leaving memory) it goes word by word.
    uint32_t* words = nullptr;
    uint8_t* written = nullptr;
    uint64_t instance = 0;
    if (sink_) {
        instance = group >> word_bits_;
        const uint64_t offset = (group & low_mask) + first;
        if (instance < state_.data_sram.size())
            words = sink_->span(static_cast<uint32_t>(instance), offset, offset + span_words, written);
    } else {
        const uint64_t pointer = group + first;
        instance = pointer >> word_bits_;
        const uint64_t index = pointer & low_mask;
        if (instance < state_.data_sram.size() && (pointer + span_words) >> word_bits_ == instance &&
            index + span_words < state_.data_sram[instance].size()) {
            words = &state_.data_sram[instance][index];
            written = &state_.data_written[instance][index];
        }
    }
    if (!words) {
        for (std::size_t k = 0; k < count; ++k)
            write8(quadrant, base, t, first + k * stride, static_cast<int8_t>(values[k]));
        return;
    }
    for (std::size_t k = 0; k < count; ++k) {
        const uint64_t i = k * stride;
        written[i] = 1;
        words[i] = (words[i] & keep) | (static_cast<uint32_t>(static_cast<uint8_t>(values[k])) << shift);
    }
    last_instance_ = static_cast<uint32_t>(instance);
    writes_[last_instance_] += count;
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
