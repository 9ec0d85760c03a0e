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
    // Storage of words first, first + 1, ..., last of `instance` in one piece
    // (word first + k at result[k], its written flag at written[k]), for a
    // series of writes that all land at or after `first` and up to `last`,
    // which the caller writes; or nullptr when the range is not stored in one
    // piece (the caller then goes word by word). The pointers stay valid until
    // the next call on this sink.
    virtual uint32_t* span(uint32_t /*instance*/, uint64_t /*first*/, uint64_t /*last*/, uint8_t*& /*written*/) {
        return nullptr;
    }
};

class OutputWriter {
public:
    OutputWriter(AcceleratorState& state, const LayerConfig& cfg, std::vector<EngineWarning>& warnings);
    ~OutputWriter();
    OutputWriter(const OutputWriter&) = delete;
    OutputWriter& operator=(const OutputWriter&) = delete;

    // Writes one 8-bit result into byte lane t % 4 of its word.
    void write8(int quadrant, uint32_t base, uint32_t t, uint64_t word_offset, int8_t value);
    // Writes `count` 8-bit results of output channel position t: value k,
    // values[k * value_stride], at word_offset first + k * stride, in order.
    // The same as write8() for each k in turn.
    void write8_series(int quadrant, uint32_t base, uint32_t t, uint64_t first, uint64_t stride, const int8_t* values,
                       std::size_t value_stride, std::size_t count);
    // Writes the 8-bit results of the `n` channel positions t, t + 1, ...
    // (at most four, all in t's group of four: t / 4 == (t + n - 1) / 4) for
    // `count` pixels: position t + k's value of pixel p is values[p *
    // value_stride + k], at word_offset first + p * stride. The same as
    // write8_series() for t, t + 1, ... in turn (each byte lane belongs to one
    // position, so pixel by pixel gives the same words), one word store per
    // pixel when the series lie in one stretch of storage.
    void write8_group(int quadrant, uint32_t base, uint32_t t, unsigned n, uint64_t first, uint64_t stride,
                      const int8_t* values, std::size_t value_stride, std::size_t count);
    // Writes one 32-bit result into its own word.
    void write32(int quadrant, uint32_t base, uint32_t t, uint64_t word_offset, int32_t value);
    // Reads back what write8/write32 stored at the same place (for layer dumps);
    // false when the place lies outside data memory.
    bool read8(int quadrant, uint32_t base, uint32_t t, uint64_t word_offset, int8_t& value);
    bool read32(int quadrant, uint32_t base, uint32_t t, uint64_t word_offset, int32_t& value);

    // Consecutive words of storage a series of writes lands in (stretch()).
    struct Stretch {
        std::size_t count = 0;
        uint32_t* words = nullptr;
        uint8_t* written = nullptr;
        uint32_t instance = 0;
    };

    // Streaming producer: every write (and read-back) goes to `sink` instead of data memory.
    void set_sink(OutputWordSink* sink) { sink_ = sink; }

private:
    // Finds the word; for data memory (no sink) also its "written" flag when
    // `written` is given (a sink keeps its own record, see OutputWordSink).
    bool locate(int quadrant, uint32_t base, uint32_t t, uint64_t word_offset, uint32_t*& word,
                uint8_t** written = nullptr);

    // Where a series of writes can go in one loop: of the `count` words
    // first, first + stride, ... of channel position t, how many from the
    // first on lie in one piece of storage (`words`, their flags `written`,
    // in `instance`); 0 when the first does not. A ring (sink) gives all or
    // nothing.
    Stretch stretch(uint32_t base, uint32_t t, uint64_t first, uint64_t stride, std::size_t count);
    // Whether every word of such a series lies in storage (none is dropped).
    bool series_stored(uint32_t base, uint32_t t, uint64_t first, uint64_t stride, std::size_t count);

    void warn_sink_outside(int quadrant, uint64_t start, uint32_t t, uint64_t word_offset);
    void warn_beyond_memory(int quadrant, uint64_t pointer, uint32_t t);

    // One output value (an 8-bit lane or a 32-bit word) stored by the layer in
    // the instance locate() found last; tallied here and handed to the
    // instances once, when the writer goes.
    void count_write() { ++writes_[last_instance_]; }

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
