#include "app/activity_report.h"

#include <string>

namespace ai8x {

namespace {

template <typename Word>
void add_memories(const InstanceTable<MemoryArray<Word>>& arrays, const std::vector<std::string>& names,
                  const char* kind, const std::vector<int>& layers, std::vector<RunReport::Activity::Series>& out) {
    for (std::size_t i = 0; i < arrays.size(); ++i) {
        const MemoryActivity& a = arrays[i].activity;
        RunReport::Activity::Series s;
        s.name = i < names.size() ? names[i] : std::string(kind) + std::to_string(i);
        s.kind = kind;
        for (int l : layers) {
            s.first.push_back(a.by_layer.at(static_cast<std::size_t>(l)).reads);
            s.second.push_back(a.by_layer.at(static_cast<std::size_t>(l)).writes);
        }
        s.bus_reads = a.bus.reads;
        s.bus_writes = a.bus.writes;
        out.push_back(std::move(s));
    }
}

// One series per instance: `counts(i)` is instance i's per-layer vector.
template <typename Table, typename Counts>
void add_series(const Table& table, const std::vector<std::string>& names, const char* kind,
                const std::vector<int>& layers, Counts counts, std::vector<RunReport::Activity::Series>& out) {
    for (std::size_t i = 0; i < table.size(); ++i) {
        RunReport::Activity::Series s;
        s.name = names.at(i);
        s.kind = kind;
        for (int l : layers) s.first.push_back(counts(table[i]).at(static_cast<std::size_t>(l)));
        out.push_back(std::move(s));
    }
}

}  // namespace

RunReport::Activity collect_activity(const AcceleratorState& state, const std::vector<int>& layers) {
    RunReport::Activity act;
    act.layers = layers;
    add_series(
        state.processor_activity, state.names.processor, "processor", layers,
        [](const ProcessorActivity& a) -> const std::vector<uint64_t>& { return a.macs; }, act.processors);
    add_series(
        state.quadrant_activity, state.names.quadrant, "quadrant", layers,
        [](const QuadrantActivity& a) -> const std::vector<uint64_t>& { return a.busy_cycles; }, act.quadrants);
    add_memories(state.data_sram_arrays, state.names.data_sram, "data_sram", layers, act.memories);
    add_memories(state.tram_arrays, state.names.tram, "tram", layers, act.memories);
    add_memories(state.kernel_arrays, state.names.kernel, "kernel", layers, act.memories);
    add_memories(state.bias_arrays, state.names.bias, "bias", layers, act.memories);
    return act;
}

}  // namespace ai8x
