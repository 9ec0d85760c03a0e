// Stage collect_results (run_stages.h): the report's figures, read from the
// board after the simulation.
#include <algorithm>

#include <spdlog/spdlog.h>
#include <systemc>

#include "app/activity_report.h"
#include "app/energy_report.h"
#include "app/generator_estimate.h"
#include "app/memory_occupancy.h"
#include "app/run_stages.h"

namespace ai8x {

namespace {

// The clock the inference ran at: MAX78002 firmware slows the CNN clock again afterwards.
double inference_clock_hz(const Accelerator& accel) {
    return accel.inference_clock_hz() > 0 ? accel.inference_clock_hz() : accel.cnn_clock_hz();
}

void collect_phases_and_energy(RunContext& ctx) {
    RunReport& report = ctx.result.report;
    const Accelerator& accel = *ctx.accel;
    const double hz = inference_clock_hz(accel);
    report.phases = ctx.instruments->phases.times(accel.busy_cycles(), hz);
    std::vector<int> ran;
    for (const auto& l : accel.last_result().layers) ran.push_back(l.layer);
    std::sort(ran.begin(), ran.end());
    ran.erase(std::unique(ran.begin(), ran.end()), ran.end());
    if (ran.empty()) return;
    report.activity = collect_activity(accel.state(), ran);
    report.energy = energy_for_run(ctx.cfg.energy, energy_inputs(*report.activity, report.phases, hz));
}

std::optional<GeneratorEstimate> generator_estimate(const std::string& dir) {
    try {
        return read_generator_estimate(dir);
    } catch (const std::exception& e) {
        spdlog::warn("{}; the report has no latency estimate", e.what());
    }
    return std::nullopt;
}

// Each layer that ran: cycles, MACs, streaming span, the generator's estimate, utilisation.
void collect_layers(RunContext& ctx, const std::optional<GeneratorEstimate>& estimate) {
    const Accelerator& accel = *ctx.accel;
    const double peak_per_cycle = double(ctx.cfg.processors_total()) * ctx.cfg.timing.peak_macs_per_processor_cycle;
    for (const auto& l : accel.last_result().layers) {
        RunReport::Layer row;
        row.layer = l.layer;
        row.macs = l.macs;
        for (const auto& t : accel.last_timing().layers)
            if (t.layer == l.layer) row.cycles = uint64_t(t.cycles.total());
        for (const auto& sp : accel.last_timing().stream_spans)
            if (sp.layer == l.layer) row.stream_span = std::make_pair(sp.first, sp.last);
        if (estimate) {
            const auto e = estimate->layers.find(l.layer);
            if (e != estimate->layers.end()) row.estimate = e->second;
        }
        if (row.cycles && *row.cycles > 0) row.utilization = double(l.macs) / (double(*row.cycles) * peak_per_cycle);
        ctx.result.report.layers.push_back(row);
    }
}

// The layer engine's findings of the last inference: streaming hazards and misprogramming.
void collect_findings(RunContext& ctx) {
    RunReport& report = ctx.result.report;
    const Accelerator& accel = *ctx.accel;
    for (const auto& h : accel.last_result().hazards)
        report.hazards.push_back({h.layer, h.address, h.cycle, h.kind, h.count, h.message});
    const auto& quadrant_names = accel.state().names.quadrant;
    for (const auto& w : accel.last_result().warnings) {
        const bool known = w.quadrant >= 0 && size_t(w.quadrant) < quadrant_names.size();
        report.warnings.push_back(
            {w.quadrant, known ? quadrant_names[size_t(w.quadrant)] : "", w.layer, w.reg, w.kind, w.count, w.message});
    }
}

void collect_accelerator(RunContext& ctx) {
    RunReport& report = ctx.result.report;
    const Accelerator& accel = *ctx.accel;
    report.cnn_clock_hz = inference_clock_hz(accel);
    report.cnn_pipeline = accel.inference_pipelined();
    const std::optional<GeneratorEstimate> estimate = generator_estimate(ctx.vector_dir);
    if (estimate) report.estimate_total = estimate->total;
    report.cnn_cycles = accel.busy_cycles();
    report.stall_cycles = accel.last_timing().stall_cycles;
    report.dropped_words = accel.fifo_dropped_words();
    for (unsigned i = 0; i < ctx.cfg.fifo_count; ++i)
        if (accel.fifo_starved_fifos() >> i & 1) report.starved_fifos.push_back(i);
    collect_layers(ctx, estimate);
    collect_findings(ctx);
    report.memory = std::move(ctx.instruments->memory_before_power_off);
    keep_fuller_occupancy(report.memory, memory_occupancy(accel.state()));
}

}  // namespace

void collect_results(RunContext& ctx) {
    RunReport& report = ctx.result.report;
    collect_phases_and_energy(ctx);
    collect_accelerator(ctx);
    report.vector = ctx.vector_dir;
    report.console = ctx.instruments->console->text();
    report.sim_time_us = sc_core::sc_time_stamp().to_seconds() * 1e6;
    report.cpu_instructions = ctx.cpu->instructions();
    if (ctx.riscv) {
        report.riscv_instructions = ctx.riscv->instructions();
        report.phases_core = "riscv";
    }
    report.inference_wall_seconds = ctx.instruments->inference_timer->last_seconds();
    if (ctx.opts.capture_layers || !ctx.opts.dump_layers_dir.empty())
        ctx.result.layer_outputs = ctx.accel->last_result().outputs;
    collect_camera(ctx);
}

}  // namespace ai8x
