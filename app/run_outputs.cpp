// Stage write_outputs (run_stages.h): the summary lines and the files the
// run was asked for. Each file is written whatever the verdict (a failed run
// is what one wants to look at); one that cannot be written is said and turns
// a pass into an error.
#include <chrono>

#include <spdlog/spdlog.h>
#include <systemc>

#include "app/energy_report.h"
#include "app/layer_dump.h"
#include "app/run_stages.h"
#include "app/timeline_writer.h"
#include "app/waveform_vcd.h"

namespace ai8x {

namespace {

void print_summary(RunContext& ctx) {
    std::FILE* out = ctx.out();
    if (!out) return;
    const RunReport& report = ctx.result.report;
    const auto cycles = static_cast<unsigned long long>(report.cnn_cycles);
    if (!ctx.riscv)
        std::fprintf(out, "\n[ai8xsim] %llu CNN cycles; simulated time per phase: %s\n", cycles,
                     format_phases(report.phases).c_str());
    else
        std::fprintf(out,
                     "\n[ai8xsim] %llu CNN cycles; instructions: cpu %llu, riscv %llu; "
                     "simulated time per phase (riscv): %s\n",
                     cycles, static_cast<unsigned long long>(report.cpu_instructions),
                     static_cast<unsigned long long>(*report.riscv_instructions), format_phases(report.phases).c_str());
    if (report.energy) std::fprintf(out, "[ai8xsim] %s\n", energy_summary(*report.energy).c_str());
}

// Runs `write`; a failure is said and turns a pass into an error.
template <typename Write>
void write_or_say(RunContext& ctx, Write write) {
    try {
        write();
    } catch (const std::exception& e) {
        ctx.say(e.what());
        if (ctx.result.exit_code == kRunPass) ctx.result.exit_code = kRunSimError;
    }
}

void write_dumps(RunContext& ctx) {
    const std::vector<LayerOutput>& layers = ctx.result.layer_outputs;
    write_or_say(ctx, [&] {
        write_layer_dumps(layers, ctx.opts.dump_layers_dir);
        spdlog::info("wrote {} layer dumps to {}", layers.size(), ctx.opts.dump_layers_dir);
    });
}

void write_waveforms(RunContext& ctx) {
    WaveformRecorder& waves = *ctx.instruments->waves;
    waves.run_ended(sc_core::sc_time_stamp());
    const Accelerator& accel = *ctx.accel;
    const std::vector<std::string>& quadrants = accel.state().names.quadrant;
    write_or_say(ctx, [&] {
        if (!ctx.opts.vcd_out.empty()) {
            WaveformLayout layout;  // scopes named as the module tree names the blocks
            layout.quadrant_scopes = quadrants;
            layout.fifo_count = ctx.cfg.fifo_count;
            layout.cnn_scope = accel.name();
            layout.fifo_scope = ctx.accel->fifo_block().name();
            layout.stream_scope = std::string(accel.name()) + ".stream";
            layout.cpu_scope = ctx.cpu->name();
            write_waveform_vcd(waves, layout, ctx.opts.vcd_out);
        }
        if (!ctx.opts.timeline_out.empty())
            write_timeline(waves, ctx.instruments->phases.spans(), quadrants, ctx.opts.timeline_out);
    });
}

// The run JSON, when --json asked for it.
void write_run_json(RunContext& ctx) {
    RunResult& r = ctx.result;
    r.report.result = r.exit_code == kRunPass ? "pass" : r.exit_code == kRunFail ? "fail" : "error";
    r.report.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - ctx.wall_start).count();
    if (!ctx.opts.json_out.empty()) write_or_say(ctx, [&] { write_json_file(r.json(), ctx.opts.json_out); });
}

}  // namespace

void write_outputs(RunContext& ctx) {
    print_summary(ctx);
    ctx.kind->print_summary(ctx);
    if (!ctx.opts.dump_layers_dir.empty()) write_dumps(ctx);
    if (ctx.instruments->waves) write_waveforms(ctx);
    ctx.kind->write_outputs(ctx);
    write_run_json(ctx);
}

}  // namespace ai8x
