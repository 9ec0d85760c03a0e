// Activity counters: what each processor and each memory instance did, per
// layer of the last inference, and what the bus masters did to each memory
// since reset. They feed the run JSON's `activity` section, the report's
// heat map and (later) the energy model. The counts follow the data path the
// layer engine models (docs/activity.md says what each one counts).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ai8x {

struct AccessCounts {
    uint64_t reads = 0;
    uint64_t writes = 0;
};

// One memory instance (a data SRAM, a TRAM, a kernel memory, a bias memory).
struct MemoryActivity {
    std::vector<AccessCounts> by_layer;  // [layer]: accesses by the layer sequencer
    AccessCounts bus;                    // accesses by bus masters (CPU, trace player) since reset

    void size_for(uint32_t layers) { by_layer.assign(layers, AccessCounts{}); }
    void clear_layers() { by_layer.assign(by_layer.size(), AccessCounts{}); }
    void clear_layer(std::size_t layer) { by_layer[layer] = AccessCounts{}; }
    AccessCounts layer_total() const {
        AccessCounts t;
        for (const AccessCounts& a : by_layer) {
            t.reads += a.reads;
            t.writes += a.writes;
        }
        return t;
    }
};

// One processor: multiply-accumulates per layer.
struct ProcessorActivity {
    std::vector<uint64_t> macs;  // [layer]

    void size_for(uint32_t layers) { macs.assign(layers, 0); }
    void clear_layers() { macs.assign(macs.size(), 0); }
    void clear_layer(std::size_t layer) { macs[layer] = 0; }
};

// One quadrant: CNN clock cycles it spent on each layer (a quadrant is busy in
// a layer when it runs and at least one of its processors is enabled there).
struct QuadrantActivity {
    std::vector<uint64_t> busy_cycles;  // [layer]

    void size_for(uint32_t layers) { busy_cycles.assign(layers, 0); }
    void clear_layers() { busy_cycles.assign(busy_cycles.size(), 0); }
    void clear_layer(std::size_t layer) { busy_cycles[layer] = 0; }
};

}  // namespace ai8x
