#include "model/hierarchy/quadrant.h"

#include "model/memories/kernel_memory_port.h"
#include "model/memories/mlator.h"
#include "model/registers/quadrant_registers.h"

namespace ai8x {

namespace {
uint64_t quadrant_base(const ArrayGeometry& g, uint32_t q) { return g.base + q * g.quadrant_stride; }

template <typename Word, typename Owner, typename Member>
std::vector<MemoryArray<Word>*> arrays_of(const std::vector<std::unique_ptr<Owner>>& owners, Member member) {
    std::vector<MemoryArray<Word>*> out;
    for (const auto& o : owners) {
        auto* m = member(*o);
        if (m) out.push_back(m);
    }
    return out;
}
}  // namespace

Quadrant::Quadrant(sc_core::sc_module_name name, const DeviceConfig& cfg, uint32_t q, AcceleratorState& state)
    : sc_module(name), index(q), registers(kLayerRegisterKinds, cfg.max_layers) {
    activity.size_for(cfg.max_layers);
    for (uint32_t i = 0; i < cfg.bias_mem.instances_per_quadrant; ++i) {
        const std::string n = cfg.bias_mem.instances_per_quadrant == 1 ? "bias" : "bias" + std::to_string(i);
        bias.push_back(std::make_unique<MemoryInstance<uint8_t>>(n.c_str(), cfg.bias_mem.words, cfg.max_layers));
    }
    for (uint32_t p = 0; p < cfg.processors_per_quadrant; ++p) {
        const uint32_t global = q * cfg.processors_per_quadrant + p;
        processors.push_back(std::make_unique<Processor>(("p" + std::to_string(global)).c_str(), cfg, global));
    }

    const std::string prefix = std::string(this->name()) + ".";
    bank_ =
        std::make_unique<RegisterBank>(prefix + "regs", cfg.quadrant_regs.base + q * cfg.quadrant_regs.quadrant_stride);
    add_quadrant_registers(*bank_, registers, cfg);
    power_ = std::make_unique<PowerDomain>("power", state, q);
    bank_->find("REG_SRAM")->on_write = [this](Register&, uint32_t old) { power_->after_sram_write(old); };
    bank_->find("REG_SRAM_TEST")->on_write = [this](Register&, uint32_t old) { power_->after_sram_test_write(old); };

    auto data = std::make_unique<DataSramPort>(
        prefix + "data_sram", cfg, q, quadrant_base(cfg.data_sram, q),
        arrays_of<uint32_t>(processors, [](Processor& p) -> MemoryArray<uint32_t>* { return p.data_sram.get(); }),
        registers);
    // The memory translator: REG_CTL's MLAT_LD loads it, REG_MLAT reads through it while it is on.
    Mlator& mlator = data->mlator();
    bank_->find("REG_CTL")->on_write = [this, &mlator](Register&, uint32_t old) {
        if (on_control_write) on_control_write(old);
        mlator.after_ctl_write(old);
    };
    bank_->find("REG_MLAT")->on_read = [&mlator](const Register& r) {
        return mlator.active() ? mlator.read() : r.value();
    };
    ports_.push_back(std::move(data));
    ports_.push_back(std::make_unique<SlotArrayPort<uint16_t>>(
        prefix + "tram", CnnBlock::Tram, cfg.tram, q, quadrant_base(cfg.tram, q),
        arrays_of<uint16_t>(processors, [](Processor& p) -> MemoryArray<uint16_t>* { return &p.tram; }), false));
    ports_.push_back(std::make_unique<SlotArrayPort<uint8_t>>(
        prefix + "bias", CnnBlock::Bias, cfg.bias_mem, q, quadrant_base(cfg.bias_mem, q),
        arrays_of<uint8_t>(bias, [](MemoryInstance<uint8_t>& b) -> MemoryArray<uint8_t>* { return &b; }), true));
    ports_.push_back(std::make_unique<KernelMemoryPort>(
        prefix + "kernel", cfg, q, quadrant_base(cfg.kernel_mem, q),
        arrays_of<KernelWord>(processors, [](Processor& p) -> MemoryArray<KernelWord>* { return &p.kernel; }),
        registers.ctl));
}

Quadrant::~Quadrant() = default;

}  // namespace ai8x
