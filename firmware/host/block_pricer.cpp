#include "firmware/host/block_pricer.h"

namespace ai8x {

uint32_t BlockPricer::through(uint32_t block_start, uint32_t address) const {
    uint16_t halfword = 0;
    read_(address, &halfword, sizeof halfword);
    return address - block_start + isa_.bytes(halfword);
}

BlockCost BlockPricer::known(uint64_t key, uint32_t address, uint32_t bytes) {
    const auto cached = costs_.find(key);
    if (cached != costs_.end()) return cached->second;
    const BlockCost cost = price(address, bytes);
    costs_.emplace(key, cost);
    return cost;
}

BlockCost BlockPricer::price(uint32_t address, uint32_t bytes) const {
    BlockCost cost;
    bool after_access[2] = {false, true};  // the state behind each instruction, per entry state
    for (uint32_t offset = 0; offset < bytes; ++cost.instructions) {
        uint16_t halfwords[2] = {0, 0};
        if (!read_(address + offset, &halfwords[0], sizeof halfwords[0])) {
            // Unicorn just translated this code, so it is readable; count the rest as 16-bit.
            const uint32_t rest = (bytes - offset) / 2;
            cost.instructions += rest;
            for (uint32_t& c : cost.cycles) c += rest * isa_.base_cycles;
            if (rest) after_access[0] = after_access[1] = false;
            break;
        }
        const uint32_t length = isa_.bytes(halfwords[0]);
        if (length == 4) read_(address + offset + 2, &halfwords[1], sizeof halfwords[1]);
        for (int entry = 0; entry < 2; ++entry)
            cost.cycles[entry] += isa_.cycles(halfwords[0], halfwords[1], after_access[entry]);
        offset += length;
    }
    // Empty (a partial block of no instruction): the state is the entry's,
    // which the caller knows; otherwise both entries agree after the first one.
    cost.ends_with_access = after_access[0];
    return cost;
}

}  // namespace ai8x
