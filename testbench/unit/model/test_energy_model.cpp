// The energy model's arithmetic on small hand-made inputs: each coefficient
// charges the events it names and nothing else, leakage follows the clock
// while per-cycle energy does not, and the phases add up.
#include <catch2/catch.hpp>

#include "model/power/energy_model.h"

using namespace ai8x;

namespace {

EnergyInputs one_layer() {
    EnergyInputs in;
    LayerEvents l;
    l.layer = 3;
    l.macs = 1000;
    l.data_sram_reads = 10;
    l.data_sram_writes = 20;
    l.tram_reads = 30;
    l.tram_writes = 40;
    l.kernel_reads = 50;
    l.bias_reads = 60;
    l.quadrant_busy_cycles = 2000;
    in.layers.push_back(l);
    in.cnn_clock_hz = 100e6;
    in.inference_us = 20;
    return in;
}

}  // namespace

TEST_CASE("energy model: each per-event coefficient charges its own events", "[energy]") {
    const EnergyInputs in = one_layer();
    EnergyConfig c;
    c.mac_pj = 1;  // 1000 MACs -> 1000 pJ
    CHECK(estimate_energy(c, in).layers.at(0).compute_uj == Approx(1000e-6));
    c = {};
    c.kernel_read_pj = 2;  // 50 x 2 pJ
    CHECK(estimate_energy(c, in).layers.at(0).compute_uj == Approx(100e-6));
    c = {};
    c.data_sram_read_pj = 1;
    c.data_sram_write_pj = 10;
    c.tram_read_pj = 100;
    c.tram_write_pj = 1000;
    c.bias_read_pj = 10000;
    // 10 + 200 + 3000 + 40000 + 600000 pJ
    const EnergyEstimate e = estimate_energy(c, in);
    CHECK(e.layers.at(0).memory_uj == Approx(643210e-6));
    CHECK(e.layers.at(0).compute_uj == 0);
    CHECK(e.layers.at(0).quadrant_uj == 0);
    CHECK(e.layers.at(0).layer == 3);
}

TEST_CASE("energy model: per-cycle quadrant energy ignores the clock, leakage does not", "[energy]") {
    EnergyInputs in = one_layer();
    EnergyConfig c;
    c.quadrant_cycle_pj = 5;  // 2000 cycles x 5 pJ = 0.01 µJ at any clock
    CHECK(estimate_energy(c, in).layers.at(0).quadrant_uj == Approx(0.01));
    in.cnn_clock_hz = 50e6;
    CHECK(estimate_energy(c, in).layers.at(0).quadrant_uj == Approx(0.01));
    c = {};
    c.quadrant_leakage_mw = 1;  // 2000 cycles at 50 MHz = 40 µs busy x 1 mW = 0.04 µJ
    CHECK(estimate_energy(c, in).layers.at(0).quadrant_uj == Approx(0.04));
    in.cnn_clock_hz = 100e6;  // half the time, half the leakage
    CHECK(estimate_energy(c, in).layers.at(0).quadrant_uj == Approx(0.02));
    in.time_scale = 1.5;  // evaluated at a 1.5x longer (measured) duration
    CHECK(estimate_energy(c, in).layers.at(0).quadrant_uj == Approx(0.03));
}

TEST_CASE("energy model: the phases add up", "[energy]") {
    EnergyInputs in = one_layer();
    in.layers.push_back(in.layers.front());
    in.layers.back().layer = 4;
    in.weight_load_us = 100;
    in.input_load_us = 10;
    in.weight_bus_writes = 1000;
    in.input_bus_writes = 100;
    EnergyConfig c;
    c.mac_pj = 1;
    c.tram_read_pj = 2;
    c.quadrant_cycle_pj = 3;
    c.cpu_sleep_mw = 0.5;  // 20 µs asleep -> 0.01 µJ
    c.cpu_active_mw = 2;   // 100 µs -> 0.2 µJ; 10 µs -> 0.02 µJ
    c.bus_write_pj = 4;    // 1000 words -> 0.004 µJ; 100 -> 0.0004 µJ
    const EnergyEstimate e = estimate_energy(c, in);
    REQUIRE(e.layers.size() == 2);
    const double per_layer = (1000 * 1 + 30 * 2 + 2000 * 3) * 1e-6;
    CHECK(e.layers[0].total_uj() == Approx(per_layer));
    CHECK(e.cpu_sleep_uj == Approx(0.01));
    CHECK(e.inference_uj == Approx(2 * per_layer + 0.01));
    CHECK(e.weight_load_uj == Approx(0.2 + 0.004));
    CHECK(e.input_load_uj == Approx(0.02 + 0.0004));
}

TEST_CASE("energy model: no activity and no time cost nothing", "[energy]") {
    EnergyConfig c;
    c.mac_pj = c.tram_read_pj = c.quadrant_cycle_pj = c.quadrant_leakage_mw = c.cpu_active_mw = c.cpu_sleep_mw = 7;
    const EnergyEstimate e = estimate_energy(c, EnergyInputs{});
    CHECK(e.inference_uj == 0);
    CHECK(e.weight_load_uj == 0);
    CHECK(e.input_load_uj == 0);
}
