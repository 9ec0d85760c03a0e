// The memory translator ("mlator") of one quadrant: a read-side view of the
// quadrant's data memory that turns HWC words into channel-major ones. While
// REG_CTL.MLAT_LD is set, each CPU read of REG_MLAT or of the quadrant's data
// memory returns byte MLATCH_SEL of four consecutive data words (the first in
// bits 7:0), i.e. one channel of four pixels, and moves on by four words. Its
// rise loads the word pointer from layer 0's LREG_WPTR_BASE (the quadrant's
// instance above the word bits, as the layer engine decodes them; the
// quadrant bits the generator puts above those are not decoded); the words
// are WPTR_INC + 1 apart (layer 0's LREG_LCTL2; the generator leaves it at 1).
//
// The read path is one word deep, as the generator's code for it shows: after
// loading the pointer it "primes" the translator with a read of REG_MLAT whose
// value it throws away, and only the reads after it return the words from the
// pointer on. So a read returns the group the previous read fetched and
// fetches the next (izer/unload.py: cnn_unload() reads REG_MLAT repeatedly;
// the RTL check_output() reads the data memory addresses in order).
#pragma once

#include <cstdint>
#include <vector>

#include "model/accel_state.h"
#include "model/memories/memory_port.h"
#include "tlm/register_description.h"

namespace ai8x {

class Mlator {
public:
    // `instances` are the quadrant's data memories in bus order.
    Mlator(const DeviceConfig& cfg, const QuadrantRegisters& regs, std::vector<DataSramArray*> instances);

    // MLAT_LD is set: reads of the data memory and REG_MLAT go through the translator.
    bool active() const { return load_.is_set(regs_.ctl); }
    // After a bus write of REG_CTL that held `old_ctl` before: the rise of MLAT_LD loads the pointer.
    void after_ctl_write(uint32_t old_ctl);
    // One read through the translator: the group the previous read fetched.
    uint32_t read();

    // Word pointer of the next group to fetch (quadrant-relative, instance bits included).
    uint64_t pointer() const { return pointer_; }

private:
    uint32_t gather();

    const QuadrantRegisters& regs_;
    std::vector<DataSramArray*> instances_;
    RegField load_, select_, wptr_inc_;
    uint32_t pointer_shift_ = 0;
    uint64_t pointer_ = 0;
    uint32_t stride_ = 1;
    uint32_t latch_ = 0;  // the group fetched by the previous read
};

// The bus side of a quadrant's data memory with its translator in front of
// the reads (writes, and reads while MLAT_LD is clear, go to the words as usual).
// The port owns the translator; the quadrant's REG_CTL and REG_MLAT reach it.
class DataSramPort : public SlotArrayPort<uint32_t> {
public:
    DataSramPort(std::string name, const DeviceConfig& cfg, uint32_t quadrant, uint64_t base,
                 std::vector<DataSramArray*> instances, const QuadrantRegisters& regs)
        : SlotArrayPort<uint32_t>(std::move(name), CnnBlock::DataSram, cfg.data_sram, quadrant, base, instances, true),
          mlator_(cfg, regs, std::move(instances)) {}

    Mlator& mlator() { return mlator_; }

protected:
    uint32_t read_lanes(uint32_t instance, uint32_t word, unsigned lane) override {
        if (!mlator_.active()) return SlotArrayPort<uint32_t>::read_lanes(instance, word, lane);
        return mlator_.read();
    }

private:
    Mlator mlator_;
};

}  // namespace ai8x
