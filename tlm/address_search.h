// Address decoding over a list of blocks sorted by base address, shared by the
// AHB bus (its windows) and the accelerator (its memory and register blocks).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ai8x {

// Index of the last block of `blocks` (sorted by `.base`) whose base is at or
// below `address`, or blocks.size() when every base lies above it. `hint` is
// the answer of the previous call: consecutive accesses mostly hit the same
// block, and that block is the answer exactly when its base is at or below
// the address and the next block's base above it, so the binary search is
// only made when it would give another answer. `hint` is updated.
template <class Block>
std::size_t block_at_or_below(const std::vector<Block>& blocks, uint64_t address, std::size_t& hint) {
    const std::size_t n = blocks.size();
    if (hint < n && blocks[hint].base <= address && (hint + 1 == n || address < blocks[hint + 1].base)) return hint;
    auto it =
        std::upper_bound(blocks.begin(), blocks.end(), address, [](uint64_t a, const Block& b) { return a < b.base; });
    if (it == blocks.begin()) return n;
    hint = std::size_t(it - blocks.begin()) - 1;
    return hint;
}

}  // namespace ai8x
