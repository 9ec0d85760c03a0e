// decode_layer() keeps each decoded layer with the register values it came
// from (state.decoded_layers). These tests hold the kept answer to a fresh
// decoding (the cache dropped) after every register decode_layer() reads has
// changed, one at a time: a register left out of the comparison would give
// the old layer back.
#include <catch2/catch.hpp>

#include <sstream>

#include "model/engine/layer_config.h"
#include "model/sequencing.h"
#include "testbench/unit/model/vector_loader.h"
#include "testbench/unit/test_support.h"

using namespace ai8x;

namespace {

// Every field of a decoded layer (or "none") and its warnings, as text.
std::string describe(const std::optional<LayerConfig>& c, const std::vector<EngineWarning>& warnings) {
    std::ostringstream os;
    for (const EngineWarning& w : warnings)
        os << w.quadrant << ' ' << w.layer << ' ' << w.reg << ' ' << w.message << '\n';
    if (!c) return os.str() + "none";
    os << c->layer << ' ' << c->lead_quadrant << " in " << c->in_rows << ' ' << c->in_cols << ' ' << c->programmed_rows
       << ' ' << c->programmed_cols << ' ' << c->pad_rows << ' ' << c->pad_cols << " pool " << c->pool_enabled << ' '
       << c->pool_max << ' ' << c->pool_rows << ' ' << c->pool_cols << ' ' << c->pool_row_step << ' '
       << c->pool_col_step << ' ' << c->pool_stride << ' ' << int(c->pool_rounding) << ' ' << c->pooled_rows << ' '
       << c->pooled_cols << " fmt " << c->chw_input << ' ' << c->wide_output << " op " << c->convolution << ' '
       << c->conv1d << ' ' << c->kernel_rows << ' ' << c->kernel_cols << ' ' << c->kernel_slot_bytes << ' '
       << c->oned_start_byte << ' ' << c->passes << ' ' << c->flatten << ' ' << c->conv_transpose << " elt "
       << c->operands << ' ' << c->eltwise << ' ' << int(c->eltwise_op) << ' ' << c->pool_before_eltwise << " mask "
       << c->mask_start << ' ' << c->mask_end << ' ' << int(c->weight_format) << ' ' << c->weight_bits << ' '
       << c->binary_weights << ' ' << c->calcx4 << ' ' << c->calcx4_block << ' ' << c->quad_fanout << ' '
       << c->depthwise << ' ' << c->broadcast << ' ' << c->bypass << " out " << c->channel_positions << ' '
       << c->output_passes << ' ' << c->timeslots << ' ' << c->output_shift << ' ' << int(c->activation) << " ptr "
       << c->read_base << ' ' << c->pixel_pitch << ' ' << c->write_base << ' ' << c->write_stride << ' '
       << c->write_pass_offset << ' ' << c->write_group_offset << " biases";
    for (const auto& b : c->biases) os << ' ' << b.quadrant << ':' << b.offset;
    os << " bases";
    for (uint32_t b : c->quadrant_write_base) os << ' ' << b;
    os << " processors";
    for (const LayerProcessor& p : c->processors) os << ' ' << p.global << (p.mask_enabled ? "m" : "");
    return os.str();
}

std::string decoded(const AcceleratorState& state, int layer, const std::vector<int>& quadrants) {
    std::vector<EngineWarning> warnings;
    const std::optional<LayerConfig> c = decode_layer(state, layer, quadrants, warnings);
    return describe(c, warnings);
}

std::string decoded_afresh(const AcceleratorState& state, int layer, const std::vector<int>& quadrants) {
    state.decoded_layers.reset();
    return decoded(state, layer, quadrants);
}

// Bit patterns a register is changed by: low bits, a middle field, the top.
constexpr uint32_t kFlips[] = {0x1u, 0x6u, 0x30u, 0x1c0u, 0xf00u, 0x1f000u, 0x3e0000u, 0xfc00000u, 0xf0000000u};

}  // namespace

TEST_CASE("a kept decoded layer equals a fresh decoding after any register it reads changes", "[engine][decode]") {
    const DeviceConfig cfg = load_device_config(default_device_config_path());
    int changes = 0, differing = 0;
    for (const char* name : {"demo-mnist", "demo-kws20_v3"}) {
        AcceleratorState state(cfg);
        test::apply_vector(test::load_vector(test::kVectors + "/" + name), state);
        const SequencePlan plan = plan_sequence(state);
        REQUIRE(plan.runs());
        for (int layer : plan.layers()) {
            INFO(name << " layer " << layer);
            const std::string original = decoded_afresh(state, layer, plan.enabled_quadrants);
            CHECK(decoded(state, layer, plan.enabled_quadrants) == original);  // kept
            for (int q : plan.enabled_quadrants) {
                QuadrantRegisters& regs = state.quadrant[std::size_t(q)];
                std::vector<uint32_t*> read = {&regs.ctl, &regs.lcnt_max};
                for (auto& kind : regs.lreg) read.push_back(&kind[std::size_t(layer)]);
                for (uint32_t* reg : read) {
                    for (uint32_t flip : kFlips) {
                        const uint32_t value = *reg;
                        *reg ^= flip;
                        const std::string kept = decoded(state, layer, plan.enabled_quadrants);
                        const std::string fresh = decoded_afresh(state, layer, plan.enabled_quadrants);
                        CHECK(kept == fresh);
                        ++changes;
                        differing += fresh != original;
                        *reg = value;
                    }
                }
            }
            CHECK(decoded(state, layer, plan.enabled_quadrants) == original);
        }
        // Another set of enabled quadrants is another key.
        const int layer = plan.layers().front();
        const std::vector<int> first_only = {plan.enabled_quadrants.front()};
        decoded(state, layer, plan.enabled_quadrants);
        CHECK(decoded(state, layer, first_only) == decoded_afresh(state, layer, first_only));
    }
    // The changes reach the decoded layer often enough for a missing register to show.
    CHECK(changes > 1000);
    CHECK(differing > changes / 10);
}

TEST_CASE("a kept decoded layer comes with its warnings again", "[engine][decode]") {
    const DeviceConfig cfg = load_device_config(default_device_config_path());
    AcceleratorState state(cfg);
    // Reset registers: no processor enabled, the layer is skipped with a warning.
    std::vector<EngineWarning> warnings;
    CHECK_FALSE(decode_layer(state, 0, {0}, warnings));
    CHECK(warnings.size() == 1);
    REQUIRE(state.decoded_layers);
    warnings.clear();
    CHECK_FALSE(decode_layer(state, 0, {0}, warnings));
    CHECK(warnings.size() == 1);  // the warning comes with the kept answer
}
