// Test-only loader for the generator's golden vectors: reads a vector folder
// (cnn.c, weights.h, main.c, sampledata.h, sampleoutput.h) and applies it
// directly to an AcceleratorState, bypassing CPU and bus, so the layer engine
// can be checked against the known-answer output on its own.
//
// It decodes itself what the firmware would do through the bus: the register
// writes of cnn_init/cnn_configure/cnn_start, the packed kernel stream written
// by cnn_load_weights() (bytes in order, nine per 72-bit kernel word), the
// memcpy_8to32() bias copies and the memcpy32() input copies of load_input().
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/accel_state.h"

namespace ai8x::test {

struct RegisterWrite {
    uint32_t address = 0;
    uint32_t value = 0;
    int line = 0;  // line in cnn.c, for messages
};

struct ArrayCopy {  // a memcpy of a named array to the accelerator
    uint32_t address = 0;
    std::vector<uint32_t> values;  // one entry per destination word
};

struct KernelBlock {  // one entry of the KERNELS stream
    uint32_t address = 0;
    std::vector<uint32_t> words;  // as cnn.c streams them after the start byte
};

struct ExpectedBlock {  // one entry of SAMPLE_OUTPUT
    uint32_t address = 0;
    uint32_t mask = 0;
    std::vector<uint32_t> words;
};

struct GoldenVector {
    std::string name;
    std::string dir;
    std::vector<RegisterWrite> registers;
    // How many of `registers` cnn_init() and cnn_configure() write: the
    // firmware loads kernels and bias between the two, input before cnn_start().
    std::size_t init_writes = 0, configure_writes = 0;
    std::vector<KernelBlock> kernels;
    std::vector<ArrayCopy> biases;  // values are bytes, one per 32-bit slot
    std::vector<ArrayCopy> inputs;
    // FIFO vectors: the data-register address load_input() writes and the
    // words it pushes there, in order.
    std::vector<ArrayCopy> fifo_writes;
    std::vector<ExpectedBlock> expected;
};

// Parses a vector folder. Throws std::runtime_error naming the file (and line)
// when something expected is missing or malformed.
GoldenVector load_vector(const std::string& dir);

// Writes registers, kernels, bias and input into `state`. Throws
// std::runtime_error naming the address of anything that does not decode.
void apply_vector(const GoldenVector& vec, AcceleratorState& state);

// The words of each input FIFO (index = FIFO number, empty when unused).
// Throws std::runtime_error naming an address that is not a FIFO data register.
std::vector<std::vector<uint32_t>> fifo_frame(const GoldenVector& vec, const DeviceConfig& cfg);

// The vector's last write of a quadrant control register that sets CNN_EN
// (cnn_start()'s start write): {address, value}; {0, 0} when there is none.
struct ControlWrite {
    uint64_t address = 0;
    uint32_t value = 0;
};
ControlWrite start_write(const GoldenVector& vec, const DeviceConfig& cfg);

// Reads one data-memory word by bus address (nullopt outside data memory).
std::optional<uint32_t> read_data_word(const AcceleratorState& state, uint32_t address);

struct Mismatch {
    uint32_t address = 0, expected = 0, actual = 0;
    std::size_t mismatching_words = 0, total_words = 0;
};

// Compares every expected word; returns the first mismatch (and counts) if any.
std::optional<Mismatch> compare_expected(const GoldenVector& vec, const AcceleratorState& state);

// Names of the vectors in INDEX.md that use neither FIFO nor streaming.
std::vector<std::string> plain_vector_names(const std::string& vectors_dir);

// Names of the vectors in INDEX.md that use the FIFOs (streaming or not).
// Rows of the summary table of INDEX.md in `vectors_dir`, as trimmed cells
// (vector, ..., FIFO "yes", streaming "yes"); throws naming the file if empty.
std::vector<std::vector<std::string>> index_rows(const std::string& vectors_dir);

// Columns of that table holding "yes" for FIFO and streaming vectors.
constexpr std::size_t kIndexFifoColumn = 3, kIndexStreamingColumn = 4;
// Names of the vectors whose `column` says "yes".
std::vector<std::string> vector_names_where(const std::string& vectors_dir, std::size_t column);

std::vector<std::string> fifo_vector_names(const std::string& vectors_dir);

}  // namespace ai8x::test
