#include "model/memories/mlator.h"

#include "model/registers/quadrant_registers.h"
#include "model/registers/register_fields.h"

namespace ai8x {

Mlator::Mlator(const DeviceConfig& cfg, const QuadrantRegisters& regs, std::vector<DataSramArray*> instances)
    : regs_(regs), instances_(std::move(instances)), pointer_shift_(cfg.data_sram.pointer_shift()) {
    const RegisterFields& f = register_fields(cfg);
    load_ = f.REG_CTL.MLAT_LD;
    select_ = f.REG_CTL.MLATCH_SEL;
    wptr_inc_ = f.LREG_LCTL2.WPTR_INC;
}

void Mlator::after_ctl_write(uint32_t old_ctl) {
    if (!active() || load_.is_set(old_ctl)) return;
    pointer_ = regs_.lreg[LREG_WPTR_BASE][0];
    stride_ = wptr_inc_.get(regs_.lreg[LREG_LCTL2][0]) + 1;
}

uint32_t Mlator::read() {
    const uint32_t out = latch_;
    latch_ = gather();
    pointer_ += 4ull * stride_;
    return out;
}

// Byte MLATCH_SEL of the four words from the pointer on; a word beyond the
// instance (the end of the memory) reads 0, as the generator never asks for it.
// Only the quadrant's own instances are decoded: the generator's pointer
// carries the quadrant above them (source address / 4, C_GROUP_OFFS apart).
uint32_t Mlator::gather() {
    if (instances_.empty()) return 0;
    const unsigned shift = 8 * select_.get(regs_.ctl);
    const uint64_t word_mask = (uint64_t{1} << pointer_shift_) - 1;
    uint32_t v = 0;
    for (unsigned i = 0; i < 4; ++i) {
        const uint64_t p = pointer_ + uint64_t{i} * stride_;
        const uint64_t instance = (p >> pointer_shift_) % instances_.size(), word = p & word_mask;
        if (word >= instances_[instance]->words.size()) continue;
        DataSramArray& a = *instances_[instance];
        ++a.activity.bus.reads;
        v |= (a.words[word] >> shift & 0xFFu) << (8 * i);
    }
    return v;
}

}  // namespace ai8x
