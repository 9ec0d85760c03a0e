#include "model/power/memory_self_test.h"

#include <algorithm>

#include "model/power/power_fields.h"
#include "model/power/quadrant_memories.h"
#include "model/registers/register_fields.h"

namespace ai8x {

namespace {
using namespace power_fields;

const char* kind_name(MemoryKind k) {
    switch (k) {
        case MemoryKind::Data: return "data";
        case MemoryKind::Kernel: return "kernel";
        case MemoryKind::Tram: return "TRAM";
        case MemoryKind::Bias: return "bias";
    }
    return "?";
}
}  // namespace

std::string run_memory_self_test(AcceleratorState& state, uint32_t q, uint32_t old_value) {
    const PowerFields& f = register_fields(state.cfg).power;
    uint32_t& reg = state.quadrant[q].sram_test;
    // Status bits are the test's, not the writer's: start from the old status.
    uint32_t status = f.bist_fail.with(0, f.bist_fail.get(old_value));
    status = f.bist_done.with(status, f.bist_done.get(old_value));
    std::string ran;
    for (unsigned i = 0; i < kMemoryKinds; ++i) {
        const MemoryKind k = MemoryKind(i);
        const bool started = f.bist_start[i].is_set(reg);
        if (started && !f.bist_done.bit(status, i)) {
            // A newly started test: the march ends with every word zero.
            zero_quadrant_memory(state, q, k);
            ran += (ran.empty() ? "" : ", ") + std::string(kind_name(k));
        }
        // A running (started) test is done and passed; a cleared start clears its status.
        status = f.bist_done.with_bit(status, i, started);
        status = f.bist_fail.with_bit(status, i, false);
    }
    status = f.bist_finished.with(status, f.bist_done.get(status) != 0);
    reg =
        f.bist_finished.with(f.bist_done.with(f.bist_fail.with(reg, f.bist_fail.get(status)), f.bist_done.get(status)),
                             f.bist_finished.get(status));

    // Clearing (MAX78002): the generated cnn_init() writes only non-zero
    // register values, so it first clears every per-layer register ("Clear
    // registers", then polls ZERO_DONE); with MEM_SEL bit 0 (written when the
    // network has biases) the bias memory too. Done at once, like the tests.
    if (f.zero_start.width != 0) {
        const bool clearing = f.zero_start.is_set(reg);
        if (clearing && !f.zero_done.is_set(old_value)) {
            for (auto& kind : state.quadrant[q].lreg) std::fill(kind.begin(), kind.end(), 0u);
            ran += (ran.empty() ? "" : ", ") + std::string("per-layer registers");
            if (f.zero_select.bit(reg, 0)) {
                zero_quadrant_memory(state, q, MemoryKind::Bias);
                ran += ", bias (clear)";
            }
        }
        reg = f.zero_done.with(reg, clearing ? 1 : 0);
    }
    return ran;
}

}  // namespace ai8x
