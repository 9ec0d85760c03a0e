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
#include "model/power/access_scope.h"

namespace ai8x {

class MemoryPort {
public:
    // `base` is the absolute bus address of this quadrant's instance 0, word 0.
    MemoryPort(std::string name, CnnBlock block, const ArrayGeometry& geometry, uint32_t quadrant, uint64_t base);
    virtual ~MemoryPort() = default;

    const std::string& name() const { return name_; }
    // The quadrant and memory the port reaches (the power rules decide by it).
    AccessScope scope() const { return {static_cast<int>(quadrant_), block_}; }
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
    CnnBlock block_;
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
    // `instances` are this quadrant's instances, owned by its modules, in bus
    // order. With `track_written`, every write marks the word as written.
    SlotArrayPort(std::string name, CnnBlock block, const ArrayGeometry& geometry, uint32_t quadrant, uint64_t base,
                  std::vector<MemoryArray<T>*> instances, bool track_written)
        : MemoryPort(std::move(name), block, geometry, quadrant, base),
          instances_(std::move(instances)),
          track_written_(track_written) {}

protected:
    uint32_t read_lanes(uint32_t instance, uint32_t word, unsigned) override {
        MemoryArray<T>& m = *instances_[instance];
        ++m.activity.bus.reads;
        return m.words[word];
    }
    void write_lanes(uint32_t instance, uint32_t word, unsigned, uint32_t value, uint32_t byte_mask) override {
        MemoryArray<T>& m = *instances_[instance];
        T& c = m.words[word];
        c = static_cast<T>((uint32_t(c) & ~byte_mask) | (value & byte_mask));
        if (track_written_) m.written[word] = 1;
        ++m.activity.bus.writes;
    }

private:
    std::vector<MemoryArray<T>*> instances_;
    bool track_written_;
};

}  // namespace ai8x
