#include "model/engine/output_writer.h"

#include <string>

namespace ai8x {

OutputWriter::OutputWriter(AcceleratorState& state, const LayerConfig& cfg, std::vector<EngineWarning>& warnings)
    : state_(state), cfg_(cfg), warnings_(warnings), writes_(state.data_sram_arrays.size(), 0) {
    word_bits_ = state.cfg.data_sram.pointer_shift();
}

bool OutputWriter::locate(int quadrant, uint32_t base, uint32_t t, uint64_t word_offset, uint32_t*& word,
                          uint8_t** written) {
    if (sink_) {
        // The ring wraps the offset inside the instance; the instance bits stay put.
        const uint64_t start = base + uint64_t{t / 4} * cfg_.write_group_offset;
        const uint64_t instance = start >> word_bits_;
        const uint64_t offset = (start & ((uint64_t{1} << word_bits_) - 1)) + word_offset;
        word = instance < state_.data_sram.size() ? sink_->word(static_cast<uint32_t>(instance), offset) : nullptr;
        last_instance_ = static_cast<uint32_t>(instance);
        if (word) return true;
        if (!warned_)
            warnings_.push_back({quadrant, cfg_.layer, "LREG_WPTR_BASE",
                                 "write pointer " + to_hex(start) + " + " + std::to_string(word_offset) +
                                     " (output channel " + std::to_string(t) +
                                     ") is outside data memory; further out-of-range writes dropped",
                                 "write_beyond_memory"});
        warned_ = true;
        return false;
    }
    const uint64_t pointer = base + uint64_t{t / 4} * cfg_.write_group_offset + word_offset;
    const uint64_t instance = pointer >> word_bits_;
    const uint64_t index = pointer & ((uint64_t{1} << word_bits_) - 1);
    if (instance >= state_.data_sram.size()) {
        if (!warned_)
            warnings_.push_back({quadrant, cfg_.layer, "LREG_WPTR_BASE",
                                 "write pointer " + to_hex(pointer) + " (output channel " + std::to_string(t) +
                                     ") is beyond data memory; further out-of-range writes dropped",
                                 "write_beyond_memory"});
        warned_ = true;
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

void OutputWriter::write32(int quadrant, uint32_t base, uint32_t t, uint64_t word_offset, int32_t value) {
    uint32_t* word = nullptr;
    uint8_t* written = nullptr;
    if (!locate(quadrant, base, t, word_offset + t % 4, word, &written)) return;
    if (written) *written = 1;
    count_write();
    *word = static_cast<uint32_t>(value);
}

void OutputWriter::count_write() {
    // One output value (an 8-bit lane or a 32-bit word) stored by the layer;
    // tallied here and handed to the instances once, when the writer goes.
    ++writes_[last_instance_];
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
