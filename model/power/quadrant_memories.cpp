#include "model/power/quadrant_memories.h"

#include <algorithm>

namespace ai8x {

namespace {

using power_fields::MemoryKind;

template <typename Word>
void fill(MemoryArray<Word>& a, Word value, uint8_t written) {
    std::fill(a.words.begin(), a.words.end(), value);
    std::fill(a.written.begin(), a.written.end(), written);
}

// Calls f on the instances of `kind` that belong to quadrant q (global
// numbering is quadrant-major for every kind).
template <typename F>
void for_each_instance(AcceleratorState& s, uint32_t q, MemoryKind kind, F&& f) {
    const DeviceConfig& c = s.cfg;
    auto range = [&](auto& table, uint32_t per_quadrant) {
        for (uint32_t i = q * per_quadrant; i < (q + 1) * per_quadrant && i < table.size(); ++i) f(table[i]);
    };
    switch (kind) {
        case MemoryKind::Data: range(s.data_sram_arrays, c.data_sram.instances_per_quadrant); break;
        case MemoryKind::Kernel: range(s.kernel_arrays, c.processors_per_quadrant); break;
        case MemoryKind::Tram: range(s.tram_arrays, c.processors_per_quadrant); break;
        case MemoryKind::Bias: range(s.bias_arrays, c.bias_mem.instances_per_quadrant); break;
    }
}

KernelWord kernel_word_of(uint8_t byte) {
    KernelWord w;
    w.fill(byte);
    return w;
}

// One overload per word type, so that for_each_instance can hand any instance over.
struct Filler {
    bool lost;
    void operator()(DataSramArray& a) const { fill<uint32_t>(a, lost ? kLostDataWord : 0u, lost ? 0 : 1); }
    void operator()(TramArray& a) const { fill<uint16_t>(a, lost ? kLostTramWord : uint16_t(0), lost ? 0 : 1); }
    void operator()(BiasArray& a) const { fill<uint8_t>(a, lost ? kLostByte : uint8_t(0), lost ? 0 : 1); }
    void operator()(KernelArray& a) const { fill(a, kernel_word_of(lost ? kLostByte : 0), uint8_t(lost ? 0 : 1)); }
};

}  // namespace

void lose_quadrant_memory(AcceleratorState& state, uint32_t q, MemoryKind kind) {
    for_each_instance(state, q, kind, Filler{true});
}

void zero_quadrant_memory(AcceleratorState& state, uint32_t q, MemoryKind kind) {
    for_each_instance(state, q, kind, Filler{false});
}

}  // namespace ai8x
