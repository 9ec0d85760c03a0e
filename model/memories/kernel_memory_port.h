// Kernel (weight) memory of one quadrant: 72-bit words, one per 16-byte slot.
//
// The firmware can load it two ways, and the generated code uses both:
//  * Four-write protocol: slot+0 takes k[0] in its low byte, slot+4 takes
//    k[1..4] and slot+8 takes k[5..8] (first weight in the most significant
//    byte); the write to slot+12 commits the staged 72 bits to the word.
//  * Express ("mexpress", REG_CTL.MEXPRESS set): a byte write to an odd address
//    selects processor and start word (the word index sits at byte offset
//    word * 4 inside the processor's window); every following 32-bit write
//    streams four more weight bytes, most significant first, and each nine
//    bytes fill the next word.
// Reads return the committed word in the four-write layout (slot+12 reads 0).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "model/memories/memory_port.h"
#include "tlm/register_description.h"

namespace ai8x {

class KernelMemoryPort : public MemoryPort {
public:
    // `instances` are the quadrant's kernel memories (owned by its processors);
    // `ctl` is the quadrant's REG_CTL cell (the MEXPRESS bit selects the protocol).
    KernelMemoryPort(std::string name, const DeviceConfig& cfg, uint32_t quadrant, uint64_t base,
                     std::vector<KernelArray*> instances, const uint32_t& ctl);

    void transport(tlm::tlm_generic_payload& trans, uint64_t offset) override;

protected:
    uint32_t read_lanes(uint32_t instance, uint32_t word, unsigned lane) override;
    void write_lanes(uint32_t instance, uint32_t word, unsigned lane, uint32_t value, uint32_t byte_mask) override;

private:
    KernelWord& word_at(uint32_t instance, uint32_t word);
    void mark_written(uint32_t instance, uint32_t word);  // for the "processor without kernels" warning
    void start_stream(uint64_t offset);
    void stream_word(uint32_t value, uint64_t offset);

    std::vector<KernelArray*> instances_;
    const uint32_t& ctl_;
    RegField mexpress_;  // REG_CTL.MEXPRESS, resolved once (checked on every access)

    std::array<uint8_t, 16> staged_{};  // four-write protocol: the slot image being assembled

    bool streaming_ = false;  // express protocol state
    uint32_t stream_instance_ = 0;
    uint32_t stream_word_ = 0;
    std::vector<uint8_t> stream_bytes_;
    bool overflow_reported_ = false;
};

}  // namespace ai8x
