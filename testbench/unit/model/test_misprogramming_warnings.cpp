// Misprogramming warnings, provoked through the bus: a legal random layer is
// programmed as the firmware would, with one thing broken (a pointer beyond
// memory, a processor's kernels never loaded, input data never written). Each
// warning must name quadrant, layer and register and appear once per
// (layer, register, kind) with a count.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>

#include "testbench/unit/model/accel_test_bench.h"
#include "testbench/unit/model/random_layer_gen.h"

using namespace ai8x;
using ai8x::test::AccelBench;
using ai8x::test::BusWrite;
using ai8x::test::in_data_memory;
using ai8x::test::max78000;
using ai8x::test::RandomLayer;

namespace {

int ppq() { return static_cast<int>(max78000().processors_per_quadrant); }

// A write pointer whose instance bits name an instance twice past the last one.
uint32_t pointer_beyond_memory() {
    const DeviceConfig& c = max78000();
    unsigned shift = 0;
    while ((1u << shift) < c.data_sram.words) ++shift;
    return (c.data_sram.instances_total(c.quadrants) * 2 - 1) << shift;
}

// First seed (from 1) whose layer is a single-operand HWC convolution
// with 8-bit output on at least two processors of one quadrant.
RandomLayer plain_layer() {
    for (uint64_t s = 1;; ++s) {
        RandomLayer l = test::generate_random_layer(s, max78000());
        if (l.params.op != reference::Op::Passthrough && l.in_processors.size() >= 2 && l.inputs.size() == 1 &&
            !l.chw && !l.params.wide_output && l.in_processors.front() / ppq() == l.in_processors.back() / ppq())
            return l;
    }
}

uint64_t layer_reg(int q, unsigned kind) {
    const DeviceConfig& c = max78000();
    return c.quadrant_regs.base + q * c.quadrant_regs.quadrant_stride + c.layer_register_offset +
           uint64_t{kind} * c.layer_register_stride;
}

// Programs `l` with `edit` applied to the write list, runs it and returns the warnings.
std::vector<EngineWarning> run_edited(const RandomLayer& l, const std::function<void(std::vector<BusWrite>&)>& edit) {
    AccelBench b;
    bool irq = false;
    b.on_irq = [&](bool level) { irq = irq || level; };
    b.accel.set_cnn_clock_hz(1e9);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    std::vector<BusWrite> writes = test::compose_layer_writes(l, max78000());
    edit(writes);
    for (const auto& w : test::compose_start_writes(l, max78000())) writes.push_back(w);
    for (const auto& w : writes) REQUIRE(b.write(w.address, w.value, w.bytes) == tlm::TLM_OK_RESPONSE);
    for (int i = 0; i < 1000 && !irq; ++i) sc_core::sc_start(10, sc_core::SC_US);
    REQUIRE(irq);
    return b.accel.last_result().warnings;
}

const EngineWarning* find_kind(const std::vector<EngineWarning>& ws, const std::string& kind) {
    const EngineWarning* found = nullptr;
    for (const auto& w : ws)
        if (w.kind == kind) {
            REQUIRE(found == nullptr);  // merged: one per (layer, register, kind)
            found = &w;
        }
    return found;
}

}  // namespace

TEST_CASE("the unedited layer runs without warnings", "[warnings]") {
    const RandomLayer l = plain_layer();
    INFO(l.describe());
    CHECK(run_edited(l, [](std::vector<BusWrite>&) {}).empty());
}

TEST_CASE("write pointer beyond data memory is a warning on LREG_WPTR_BASE", "[warnings]") {
    const RandomLayer l = plain_layer();
    INFO(l.describe());
    const auto ws = run_edited(l, [&](std::vector<BusWrite>& writes) {
        for (auto& w : writes)
            for (int q : test::used_quadrants(l, max78000()))
                if (w.address == layer_reg(q, 6)) w.value = pointer_beyond_memory();
    });
    const EngineWarning* w = find_kind(ws, "write_beyond_memory");
    REQUIRE(w);
    CHECK(w->reg == "LREG_WPTR_BASE");
    CHECK(w->layer == 0);
    CHECK(w->quadrant == l.in_processors.front() / ppq());
}

TEST_CASE("read pointer beyond the instance is a warning on LREG_RPTR_BASE with a count", "[warnings]") {
    const RandomLayer l = plain_layer();
    INFO(l.describe());
    const auto ws = run_edited(l, [&](std::vector<BusWrite>& writes) {
        for (auto& w : writes)
            for (int q : test::used_quadrants(l, max78000()))
                if (w.address == layer_reg(q, 10)) w.value = max78000().data_sram.words - 1;
    });
    const EngineWarning* w = find_kind(ws, "read_beyond_memory");
    REQUIRE(w);
    CHECK(w->reg == "LREG_RPTR_BASE");
    CHECK(w->layer == 0);
    CHECK(w->quadrant == l.in_processors.front() / ppq());
    CHECK(w->count == l.in_processors.size());  // one per processor, merged
}

TEST_CASE("an enabled processor whose kernels were never loaded is a warning on LREG_ENA", "[warnings]") {
    const RandomLayer l = plain_layer();
    INFO(l.describe());
    const DeviceConfig& c = max78000();
    const int victim = l.in_processors[1];
    const uint64_t window = c.kernel_mem.base + (victim / ppq()) * c.kernel_mem.quadrant_stride +
                            (victim % ppq()) * c.kernel_mem.instance_stride;
    const auto ws = run_edited(l, [&](std::vector<BusWrite>& writes) {
        writes.erase(std::remove_if(writes.begin(), writes.end(),
                                    [&](const BusWrite& w) {
                                        return w.address >= window && w.address < window + c.kernel_mem.instance_stride;
                                    }),
                     writes.end());
    });
    const EngineWarning* w = find_kind(ws, "processor_without_kernels");
    REQUIRE(w);
    CHECK(w->reg == "LREG_ENA");
    CHECK(w->layer == 0);
    CHECK(w->quadrant == victim / ppq());
    CHECK(w->message.find("processor " + std::to_string(victim % ppq()) + " ") != std::string::npos);
    CHECK(w->count == 1);
}

TEST_CASE("reading data memory nobody wrote is one warning on LREG_RPTR_BASE with a count", "[warnings]") {
    const RandomLayer l = plain_layer();
    INFO(l.describe());
    const auto ws = run_edited(l, [&](std::vector<BusWrite>& writes) {
        writes.erase(
            std::remove_if(writes.begin(), writes.end(), [](const BusWrite& w) { return in_data_memory(w.address); }),
            writes.end());
    });
    const EngineWarning* w = find_kind(ws, "unwritten_read");
    REQUIRE(w);
    CHECK(w->reg == "LREG_RPTR_BASE");
    CHECK(w->layer == 0);
    CHECK(w->quadrant == l.in_processors.front() / ppq());
    // Every processor reads every input word of its pixels once.
    const uint64_t pixels = uint64_t(l.inputs[0].height) * l.inputs[0].width * l.in_passes;
    CHECK(w->count == pixels * l.in_processors.size());
}
