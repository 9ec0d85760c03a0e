// A memory instance as a named object of the module tree (cnn.q2.p37.tram):
// its storage, written flags and activity counters.
#pragma once

#include <systemc>

#include "model/hierarchy/memory_array.h"

namespace ai8x {

template <typename Word>
class MemoryInstance : public sc_core::sc_object, public MemoryArray<Word> {
public:
    MemoryInstance(const char* name, uint32_t words, uint32_t layers)
        : sc_core::sc_object(name), MemoryArray<Word>(words, layers) {}
    const char* kind() const override { return "ai8x_memory_instance"; }
};

}  // namespace ai8x
