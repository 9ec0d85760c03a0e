#include "model/power/energy_model.h"

namespace ai8x {

namespace {

constexpr double kPicoToMicro = 1e-6;  // pJ -> µJ
constexpr double kMilliwattMicrosecondToMicrojoule = 1e-3;

double pj(uint64_t events, double pj_each) { return double(events) * pj_each; }

}  // namespace

EnergyEstimate estimate_energy(const EnergyConfig& c, const EnergyInputs& in) {
    EnergyEstimate e;
    // Leakage of a busy quadrant for one of its cycles: power x clock period.
    const double leakage_pj_per_cycle = in.cnn_clock_hz > 0 ? c.quadrant_leakage_mw * 1e-3 / in.cnn_clock_hz * 1e12 : 0;
    double layers_uj = 0;
    for (const LayerEvents& l : in.layers) {
        LayerEnergy le;
        le.layer = l.layer;
        le.compute_uj = (pj(l.macs, c.mac_pj) + pj(l.kernel_reads, c.kernel_read_pj)) * kPicoToMicro;
        le.memory_uj =
            (pj(l.data_sram_reads, c.data_sram_read_pj) + pj(l.data_sram_writes, c.data_sram_write_pj) +
             pj(l.tram_reads, c.tram_read_pj) + pj(l.tram_writes, c.tram_write_pj) + pj(l.bias_reads, c.bias_read_pj)) *
            kPicoToMicro;
        le.quadrant_uj = double(l.quadrant_busy_cycles) * in.time_scale * (c.quadrant_cycle_pj + leakage_pj_per_cycle) *
                         kPicoToMicro;
        layers_uj += le.total_uj();
        e.layers.push_back(le);
    }
    e.cpu_sleep_uj = c.cpu_sleep_mw * in.inference_us * kMilliwattMicrosecondToMicrojoule;
    e.inference_uj = layers_uj + e.cpu_sleep_uj;
    e.weight_load_uj = c.cpu_active_mw * in.weight_load_us * kMilliwattMicrosecondToMicrojoule +
                       pj(in.weight_bus_writes, c.bus_write_pj) * kPicoToMicro;
    e.input_load_uj = c.cpu_active_mw * in.input_load_us * kMilliwattMicrosecondToMicrojoule +
                      pj(in.input_bus_writes, c.bus_write_pj) * kPicoToMicro;
    return e;
}

}  // namespace ai8x
