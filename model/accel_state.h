// Architectural state of the CNN accelerator as the layer engine, the timing
// walk and the streaming controller see it: every memory word and register
// value the firmware can reach, numbered globally (data SRAM instance i,
// processor p, quadrant q).
//
// The storage itself belongs to the module tree (model/hierarchy: each
// quadrant owns its registers and bias memory, each processor its kernel
// memory, TRAM and, for the first processor of a group, the data SRAM the
// group shares); this object only holds numbered views of it, bound with
// attach(). Built on its own (unit tests, tools), it owns a detached copy of
// the same storage instead. Nothing here has side effects.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/hierarchy/activity.h"
#include "model/hierarchy/instance_table.h"
#include "model/hierarchy/memory_array.h"
#include "registers/cnn.h"
#include "tlm/device_config.h"

namespace ai8x {

class HostProfile;
class WorkerPool;
struct LayerDecodeCache;

// One 72-bit kernel memory word: nine 8-bit weights (or packed 1/2/4-bit weights).
using KernelWord = std::array<uint8_t, 9>;

struct QuadrantRegisters {
    uint32_t ctl = 0;        // REG_CTL      control (enable, status bits)
    uint32_t sram = 0;       // REG_SRAM     SRAM power/control
    uint32_t lcnt_max = 0;   // REG_LCNT_MAX last layer index
    uint32_t sram_test = 0;  // REG_SRAM_TEST BIST
    uint32_t ifrm = 0;       // REG_IFRM     interface frame count (streaming)
    uint32_t mlat = 0;       // REG_MLAT     data-read latency (read-ahead)
    // Per-layer registers: lreg[kind][layer], kind a LayerRegisterKind (model/registers).
    std::vector<std::vector<uint32_t>> lreg;
    // Every other global register of the family (the MAX78002's snoop units),
    // numbered by the generated QuadrantRegister index; reached through global().
    std::array<uint32_t, kQuadrantRegisters> others{};

    // Storage of global register `r`: one of the named members above, or its slot in `others`.
    uint32_t& global(QuadrantRegister r);

    QuadrantRegisters() = default;
    QuadrantRegisters(uint32_t kinds, uint32_t layers) : lreg(kinds, std::vector<uint32_t>(layers, 0)) {}
    void clear();  // reset values, in place
};

// Hierarchical names of the instances (cnn.q2.p37.tram), for messages, the run
// JSON and reports; same numbering as the tables below.
struct InstanceNames {
    std::vector<std::string> quadrant, processor, data_sram, tram, kernel, bias;
    // The names the module tree gives, for a state without one.
    static InstanceNames of_tree(const DeviceConfig& cfg, const std::string& root = "cnn");
};

using DataSramArray = MemoryArray<uint32_t>;
using TramArray = MemoryArray<uint16_t>;
using KernelArray = MemoryArray<KernelWord>;
using BiasArray = MemoryArray<uint8_t>;

// Where the storage of every instance lives, in global numbering.
struct StateBinding {
    std::vector<QuadrantRegisters*> registers;           // [quadrant]
    std::vector<BiasArray*> bias;                        // [quadrant]
    std::vector<QuadrantActivity*> quadrant_activity;    // [quadrant]
    std::vector<DataSramArray*> data_sram;               // [instance]
    std::vector<TramArray*> tram;                        // [processor]
    std::vector<KernelArray*> kernel;                    // [processor]
    std::vector<ProcessorActivity*> processor_activity;  // [processor]
    InstanceNames names;
};

struct AcceleratorState {
    // A state with its own detached storage (no module tree).
    explicit AcceleratorState(const DeviceConfig& cfg);
    // A state whose storage the caller's modules own; attach() binds it.
    struct Unbound {};
    AcceleratorState(const DeviceConfig& cfg, Unbound);
    ~AcceleratorState();
    AcceleratorState(const AcceleratorState&) = delete;
    AcceleratorState& operator=(const AcceleratorState&) = delete;

    void attach(const StateBinding& binding);

    const DeviceConfig& cfg;

    // Memory instances with their written flags and activity.
    InstanceTable<DataSramArray> data_sram_arrays;        // [quadrant * instances_per_quadrant + i]
    InstanceTable<TramArray> tram_arrays;                 // [global processor]
    InstanceTable<KernelArray> kernel_arrays;             // [global processor]
    InstanceTable<BiasArray> bias_arrays;                 // [quadrant]
    InstanceTable<ProcessorActivity> processor_activity;  // [global processor]
    InstanceTable<QuadrantActivity> quadrant_activity;    // [quadrant]

    // The same words as plain vectors, for the compute loops.
    InstanceTable<std::vector<uint32_t>> data_sram;
    InstanceTable<std::vector<uint16_t>> tram;
    InstanceTable<std::vector<KernelWord>> kernel;
    InstanceTable<std::vector<uint8_t>> bias;
    // Which words have ever been written since reset (1 = written), for the
    // misprogramming warnings: data words by the CPU or a layer's output,
    // kernel words by either kernel loading protocol, bias entries by the CPU.
    InstanceTable<std::vector<uint8_t>> data_written;
    InstanceTable<std::vector<uint8_t>> kernel_written;
    InstanceTable<std::vector<uint8_t>> bias_written;

    InstanceTable<QuadrantRegisters> quadrant;
    InstanceNames names;

    // FIFO and always-on registers.
    uint32_t fifo_ctl = 0;
    uint32_t fifo_stat = 0;
    uint32_t aon_ctl = 0;

    // One-shot mode (REG_CTL.ONESHOT, model/sequencing.h): the layer the next
    // start runs; -1 when the next start begins at the first layer.
    int oneshot_resume = -1;

    // Threads the layer engine may share its pure computation with
    // (`run --threads`); null runs everything on the calling thread. Not owned
    // (the Accelerator owns its pool); not part of the architectural state.
    WorkerPool* compute_pool = nullptr;
    // Where the layer engine books its wall time per layer and stage
    // (AI8XSIM_HOST_PROFILE, model/engine/host_profile.h); null: nowhere.
    HostProfile* host_profile = nullptr;

    // Layers decoded from their registers (decode_layer(),
    // model/engine/layer_config.h), each kept with the register values it was
    // decoded from and used again only while they are the same: a cache, not
    // part of the architectural state.
    mutable std::shared_ptr<LayerDecodeCache> decoded_layers;

    // Clears memories, registers and counters to their reset contents.
    void reset();
    // Clears the per-layer activity counters (an inference starts): those of
    // the layers noted since the last clear, the only ones that can be set.
    void clear_layer_activity();
    // Every writer of a per-layer activity counter notes its layer first
    // (the layer engine for each layer it runs, the sequencer for the busy
    // cycles), so that clearing touches a few layers, not all max_layers.
    void note_layer_activity(int layer);

private:
    struct Detached;
    std::unique_ptr<Detached> detached_;
    std::vector<int> active_layers_;    // noted since the last clear, each once
    std::vector<uint8_t> layer_noted_;  // [layer]: 1 when in active_layers_
    void clear_all_layer_activity();
};

}  // namespace ai8x
