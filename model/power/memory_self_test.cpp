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
    const RegisterFields& fields = register_fields(state.cfg);
    const regs::quadrant::REG_SRAM_TEST& f = fields.REG_SRAM_TEST;
    uint32_t& reg = state.quadrant[q].sram_test;
    // Status bits are the test's, not the writer's: start from the old status.
    uint32_t status = f.BIST_FAIL.with(0, f.BIST_FAIL.get(old_value));
    status = f.BIST_DONE.with(status, f.BIST_DONE.get(old_value));
    std::string ran;
    for (unsigned i = 0; i < kMemoryKinds; ++i) {
        const MemoryKind k = MemoryKind(i);
        const bool started = power_fields::bist_start(fields, k).is_set(reg);
        if (started && !f.BIST_DONE.bit(status, i)) {
            // A newly started test: the march ends with every word zero.
            zero_quadrant_memory(state, q, k);
            ran += (ran.empty() ? "" : ", ") + std::string(kind_name(k));
        }
        // A running (started) test is done and passed; a cleared start clears its status.
        status = f.BIST_DONE.with_bit(status, i, started);
        status = f.BIST_FAIL.with_bit(status, i, false);
    }
    status = f.BIST_FINISHED.with(status, f.BIST_DONE.get(status) != 0);
    reg =
        f.BIST_FINISHED.with(f.BIST_DONE.with(f.BIST_FAIL.with(reg, f.BIST_FAIL.get(status)), f.BIST_DONE.get(status)),
                             f.BIST_FINISHED.get(status));

    // Clearing (MAX78002): the generated cnn_init() writes only non-zero
    // register values, so it first clears every per-layer register ("Clear
    // registers", then polls ZERO_DONE); with MEM_SEL bit 0 (written when the
    // network has biases) the bias memory too. Done at once, like the tests.
    if (f.ZERO_EX.width != 0) {
        const bool clearing = f.ZERO_EX.is_set(reg);
        if (clearing && !f.ZERO_DONE.is_set(old_value)) {
            for (auto& kind : state.quadrant[q].lreg) std::fill(kind.begin(), kind.end(), 0u);
            ran += (ran.empty() ? "" : ", ") + std::string("per-layer registers");
            if (f.MEM_SEL.bit(reg, 0)) {
                zero_quadrant_memory(state, q, MemoryKind::Bias);
                ran += ", bias (clear)";
            }
        }
        reg = f.ZERO_DONE.with(reg, clearing ? 1 : 0);
    }
    return ran;
}

}  // namespace ai8x
