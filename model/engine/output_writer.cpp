#include "model/engine/output_writer.h"

#include <string>

namespace ai8x {

OutputWriter::OutputWriter(AcceleratorState& state, const LayerConfig& cfg,
                           std::vector<EngineWarning>& warnings)
    : state_(state), cfg_(cfg), warnings_(warnings) {
    while ((1u << word_bits_) < state.cfg.data_sram.words) ++word_bits_;
}

bool OutputWriter::locate(int quadrant, uint32_t base, uint32_t t, uint64_t word_offset, uint32_t*& word) {
    const uint64_t pointer = base + uint64_t{t / 4} * cfg_.write_group_offset + word_offset;
    const uint64_t instance = pointer >> word_bits_;
    const uint64_t index = pointer & ((uint64_t{1} << word_bits_) - 1);
    if (instance >= state_.data_sram.size()) {
        if (!warned_)
            warnings_.push_back({quadrant, cfg_.layer, "LREG_WPTR_BASE",
                                 "write pointer " + to_hex(pointer) + " (output channel " + std::to_string(t) +
                                     ") is beyond data memory; further out-of-range writes dropped"});
        warned_ = true;
        return false;
    }
    word = &state_.data_sram[instance][index];
    return true;
}

void OutputWriter::write8(int quadrant, uint32_t base, uint32_t t, uint64_t word_offset, int8_t value) {
    uint32_t* word = nullptr;
    if (!locate(quadrant, base, t, word_offset, word)) return;
    const unsigned shift = 8 * (t % 4);
    *word = (*word & ~(0xffu << shift)) | (static_cast<uint32_t>(static_cast<uint8_t>(value)) << shift);
}

void OutputWriter::write32(int quadrant, uint32_t base, uint32_t t, uint64_t word_offset, int32_t value) {
    uint32_t* word = nullptr;
    if (!locate(quadrant, base, t, word_offset + t % 4, word)) return;
    *word = static_cast<uint32_t>(value);
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
