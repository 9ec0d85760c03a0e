#include "model/accel_state.h"

#include "model/registers/quadrant_registers.h"

#include <algorithm>

namespace ai8x {

void QuadrantRegisters::clear() {
    ctl = sram = lcnt_max = sram_test = ifrm = mlat = 0;
    for (auto& kind : lreg) std::fill(kind.begin(), kind.end(), 0u);
    others.fill(0u);
}

uint32_t& QuadrantRegisters::global(QuadrantRegister r) {
    switch (r) {
        case QuadrantRegister::REG_CTL: return ctl;
        case QuadrantRegister::REG_SRAM: return sram;
        case QuadrantRegister::REG_LCNT_MAX: return lcnt_max;
        case QuadrantRegister::REG_SRAM_TEST: return sram_test;
        case QuadrantRegister::REG_IFRM: return ifrm;
        case QuadrantRegister::REG_MLAT: return mlat;
        default: return others.at(static_cast<unsigned>(r));
    }
}

// Storage of a state used without a module tree.
struct AcceleratorState::Detached {
    std::vector<std::unique_ptr<QuadrantRegisters>> registers;
    std::vector<std::unique_ptr<BiasArray>> bias;
    std::vector<std::unique_ptr<QuadrantActivity>> quadrant_activity;
    std::vector<std::unique_ptr<DataSramArray>> data_sram;
    std::vector<std::unique_ptr<TramArray>> tram;
    std::vector<std::unique_ptr<KernelArray>> kernel;
    std::vector<std::unique_ptr<ProcessorActivity>> processor_activity;

    template <typename T, typename... Args>
    static std::vector<T*> make(std::vector<std::unique_ptr<T>>& owner, uint32_t n, const Args&... args) {
        std::vector<T*> raw;
        for (uint32_t i = 0; i < n; ++i) {
            owner.push_back(std::make_unique<T>(args...));
            raw.push_back(owner.back().get());
        }
        return raw;
    }
};

namespace {
template <typename T>
std::vector<T*> activity_of_new(std::vector<std::unique_ptr<T>>& owner, uint32_t n, uint32_t layers) {
    std::vector<T*> raw;
    for (uint32_t i = 0; i < n; ++i) {
        owner.push_back(std::make_unique<T>());
        owner.back()->size_for(layers);
        raw.push_back(owner.back().get());
    }
    return raw;
}

template <typename Word, typename Member>
std::vector<Member*> project(const std::vector<MemoryArray<Word>*>& arrays, Member MemoryArray<Word>::*member) {
    std::vector<Member*> out;
    for (MemoryArray<Word>* a : arrays) out.push_back(&(a->*member));
    return out;
}
}  // namespace

AcceleratorState::AcceleratorState(const DeviceConfig& c, Unbound) : cfg(c), layer_noted_(c.max_layers, 0) {}

AcceleratorState::AcceleratorState(const DeviceConfig& c)
    : cfg(c), detached_(std::make_unique<Detached>()), layer_noted_(c.max_layers, 0) {
    Detached& d = *detached_;
    const uint32_t quads = cfg.quadrants, layers = cfg.max_layers;
    StateBinding b;
    b.registers = Detached::make(d.registers, quads, kLayerRegisterKinds, layers);
    b.bias = Detached::make(d.bias, cfg.bias_mem.instances_total(quads), cfg.bias_mem.words, layers);
    b.quadrant_activity = activity_of_new(d.quadrant_activity, quads, layers);
    b.data_sram = Detached::make(d.data_sram, cfg.data_sram.instances_total(quads), cfg.data_sram.words, layers);
    b.tram = Detached::make(d.tram, cfg.tram.instances_total(quads), cfg.tram.words, layers);
    b.kernel = Detached::make(d.kernel, cfg.kernel_mem.instances_total(quads), cfg.kernel_mem.words, layers);
    b.processor_activity = activity_of_new(d.processor_activity, cfg.processors_total(), layers);
    b.names = InstanceNames::of_tree(cfg);
    attach(b);
}

AcceleratorState::~AcceleratorState() = default;

InstanceNames InstanceNames::of_tree(const DeviceConfig& cfg, const std::string& root) {
    InstanceNames n;
    for (uint32_t q = 0; q < cfg.quadrants; ++q) {
        const std::string quad = root + ".q" + std::to_string(q);
        n.quadrant.push_back(quad);
        for (uint32_t i = 0; i < cfg.bias_mem.instances_per_quadrant; ++i)
            n.bias.push_back(quad + (cfg.bias_mem.instances_per_quadrant == 1 ? ".bias" : ".bias" + std::to_string(i)));
        for (uint32_t l = 0; l < cfg.processors_per_quadrant; ++l) {
            const uint32_t p = q * cfg.processors_per_quadrant + l;
            const std::string proc = quad + ".p" + std::to_string(p);
            n.processor.push_back(proc);
            n.tram.push_back(proc + ".tram");
            n.kernel.push_back(proc + ".kernel");
            if (cfg.processors_per_data_sram && p % cfg.processors_per_data_sram == 0)
                n.data_sram.push_back(proc + ".sram");
        }
    }
    return n;
}

void AcceleratorState::attach(const StateBinding& b) {
    names = b.names;
    quadrant.bind(b.registers);
    bias_arrays.bind(b.bias);
    quadrant_activity.bind(b.quadrant_activity);
    data_sram_arrays.bind(b.data_sram);
    tram_arrays.bind(b.tram);
    kernel_arrays.bind(b.kernel);
    processor_activity.bind(b.processor_activity);

    data_sram.bind(project(b.data_sram, &DataSramArray::words));
    data_written.bind(project(b.data_sram, &DataSramArray::written));
    tram.bind(project(b.tram, &TramArray::words));
    kernel.bind(project(b.kernel, &KernelArray::words));
    kernel_written.bind(project(b.kernel, &KernelArray::written));
    bias.bind(project(b.bias, &BiasArray::words));
    bias_written.bind(project(b.bias, &BiasArray::written));
}

void AcceleratorState::reset() {
    for (auto& a : data_sram_arrays) a.clear();
    for (auto& a : tram_arrays) a.clear();
    for (auto& a : kernel_arrays) a.clear();
    for (auto& a : bias_arrays) a.clear();
    for (auto& r : quadrant) r.clear();
    clear_all_layer_activity();
    fifo_ctl = fifo_stat = aon_ctl = 0;
    oneshot_resume = -1;
}

void AcceleratorState::clear_all_layer_activity() {
    for (auto& a : data_sram_arrays) a.activity.clear_layers();
    for (auto& a : tram_arrays) a.activity.clear_layers();
    for (auto& a : kernel_arrays) a.activity.clear_layers();
    for (auto& a : bias_arrays) a.activity.clear_layers();
    for (auto& p : processor_activity) p.clear_layers();
    for (auto& q : quadrant_activity) q.clear_layers();
    active_layers_.clear();
    layer_noted_.assign(cfg.max_layers, 0);
}

void AcceleratorState::note_layer_activity(int layer) {
    const auto l = static_cast<std::size_t>(layer);
    if (layer < 0 || l >= layer_noted_.size() || layer_noted_[l]) return;
    layer_noted_[l] = 1;
    active_layers_.push_back(layer);
}

void AcceleratorState::clear_layer_activity() {
    for (const int layer : active_layers_) {
        const auto l = static_cast<std::size_t>(layer);
        for (auto& a : data_sram_arrays) a.activity.clear_layer(l);
        for (auto& a : tram_arrays) a.activity.clear_layer(l);
        for (auto& a : kernel_arrays) a.activity.clear_layer(l);
        for (auto& a : bias_arrays) a.activity.clear_layer(l);
        for (auto& p : processor_activity) p.clear_layer(l);
        for (auto& q : quadrant_activity) q.clear_layer(l);
        layer_noted_[l] = 0;
    }
    active_layers_.clear();
}

}  // namespace ai8x
