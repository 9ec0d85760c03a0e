// Bus side of one quadrant's copy of an accelerator memory (data SRAM, TRAM,
// bias or kernel memory). The port decodes a bus offset into instance, word and
// byte lane, enforces the access rules, and leaves to the concrete memory how a
// 32-bit lane group of a slot maps onto the stored word.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <tlm>

#include "model/accel_state.h"

namespace ai8x {

class MemoryPort {
public:
    // `base` is the absolute bus address of this quadrant's instance 0, word 0.
    MemoryPort(std::string name, const ArrayGeometry& geometry, uint32_t quadrant, uint64_t base);
    virtual ~MemoryPort() = default;

    const std::string& name() const { return name_; }
    uint64_t base() const { return base_; }
    // Bytes from instance 0 word 0 to the end of the last instance's last slot.
    uint64_t span() const;

    // Serves a bus transaction at `offset` bytes from base(). Accepts naturally
    // aligned 1-, 2- and 4-byte accesses to existing words; answers the rest with
    // an error response.
    virtual void transport(tlm::tlm_generic_payload& trans, uint64_t offset);

protected:
    // 32-bit view of the four bytes at `lane` (0, 4, 8, 12) of a slot.
    virtual uint32_t read_lanes(uint32_t instance, uint32_t word, unsigned lane) = 0;
    // Writes the bytes of `value` selected by `byte_mask` into that view.
    virtual void write_lanes(uint32_t instance, uint32_t word, unsigned lane, uint32_t value, uint32_t byte_mask) = 0;

    uint64_t address_of(uint64_t offset) const { return base_ + offset; }

    std::string name_;
    ArrayGeometry geo_;
    uint32_t quadrant_;
    uint64_t base_;
};

// Data SRAM (uint32_t), TRAM (uint16_t) and bias memory (uint8_t): one stored
// value of type T per 32-bit slot. Bytes beyond T's width read 0 and ignore
// writes, which is what the hardware's narrower arrays show on the bus.
template <typename T>
class SlotArrayPort : public MemoryPort {
public:
    using Storage = std::vector<std::vector<T>> AcceleratorState::*;

    // `kind` names the array in messages ("q1.tram"); `storage` selects it in the state.
    // `written`, if given, selects the array whose cell is set to 1 on every write.
    SlotArrayPort(AcceleratorState& state, uint32_t quadrant, uint64_t base, const char* kind,
                  const ArrayGeometry& geometry, Storage storage,
                  std::vector<std::vector<uint8_t>> AcceleratorState::*written = nullptr)
        : MemoryPort("q" + std::to_string(quadrant) + "." + kind, geometry, quadrant, base),
          state_(state), storage_(storage), written_(written) {}

protected:
    uint32_t read_lanes(uint32_t instance, uint32_t word, unsigned) override { return cell(instance, word); }
    void write_lanes(uint32_t instance, uint32_t word, unsigned, uint32_t value, uint32_t byte_mask) override {
        T& c = cell(instance, word);
        c = static_cast<T>((uint32_t(c) & ~byte_mask) | (value & byte_mask));
        if (written_) (state_.*written_)[quadrant_ * geo_.instances_per_quadrant + instance][word] = 1;
    }

private:
    T& cell(uint32_t instance, uint32_t word) {
        return (state_.*storage_)[quadrant_ * geo_.instances_per_quadrant + instance][word];
    }

    AcceleratorState& state_;
    Storage storage_;
    std::vector<std::vector<uint8_t>> AcceleratorState::*written_;
};

}  // namespace ai8x
