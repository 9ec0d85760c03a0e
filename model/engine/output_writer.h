// Write-pointer logic: where the value of output channel position t, output
// pass e and output pixel n lands in data memory.
//
// A write pointer is a word address whose low bits select the word inside a
// data memory instance and whose high bits select the (global) instance. Four
// output channels share a 32-bit word (byte lane t % 4); every further group of
// four moves the pointer by the group offset (mask offset register for
// convolutions, timeslot offset register for passthrough). Pixels advance by
// the write stride (write-pointer increment from layer control 2), output passes
// by the multi-pass channel offset. 32-bit outputs use one word per channel.
#pragma once

#include <cstdint>
#include <vector>

#include "model/accel_state.h"
#include "model/engine/layer_config.h"

namespace ai8x {

// Receives the writes of a layer whose consumer streams (docs/streaming.md §4.1):
// the consumer reads them through its input ring at a time of its own, so the
// writes are kept unwrapped. word() returns the storage of word `offset`
// (unwrapped, counted from word 0 of global data memory instance `instance`)
// and records that word as written (data_written when it is data memory).
class OutputWordSink {
public:
    virtual ~OutputWordSink() = default;
    virtual uint32_t* word(uint32_t instance, uint64_t offset) = 0;
};

class OutputWriter {
public:
    OutputWriter(AcceleratorState& state, const LayerConfig& cfg, std::vector<EngineWarning>& warnings);
    ~OutputWriter();
    OutputWriter(const OutputWriter&) = delete;
    OutputWriter& operator=(const OutputWriter&) = delete;

    // Writes one 8-bit result into byte lane t % 4 of its word.
    void write8(int quadrant, uint32_t base, uint32_t t, uint64_t word_offset, int8_t value);
    // Writes one 32-bit result into its own word.
    void write32(int quadrant, uint32_t base, uint32_t t, uint64_t word_offset, int32_t value);
    // Reads back what write8/write32 stored at the same place (for layer dumps);
    // false when the place lies outside data memory.
    bool read8(int quadrant, uint32_t base, uint32_t t, uint64_t word_offset, int8_t& value);
    bool read32(int quadrant, uint32_t base, uint32_t t, uint64_t word_offset, int32_t& value);

    // Streaming producer: every write (and read-back) goes to `sink` instead of data memory.
    void set_sink(OutputWordSink* sink) { sink_ = sink; }

private:
    // Finds the word; for data memory (no sink) also its "written" flag when
    // `written` is given (a sink keeps its own record, see OutputWordSink).
    bool locate(int quadrant, uint32_t base, uint32_t t, uint64_t word_offset, uint32_t*& word,
                uint8_t** written = nullptr);

    void count_write();  // activity of the instance locate() found last

    AcceleratorState& state_;
    const LayerConfig& cfg_;
    uint32_t last_instance_ = 0;
    std::vector<uint64_t> writes_;  // output values stored per data memory instance
    std::vector<EngineWarning>& warnings_;
    unsigned word_bits_ = 0;  // log2(words per instance)
    bool warned_ = false;
    OutputWordSink* sink_ = nullptr;
};

}  // namespace ai8x
