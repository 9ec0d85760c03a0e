// `ai8xsim run DIR`: build the generated firmware of DIR, run it on the
// virtual board, and end with the firmware's own known-answer verdict.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>

#include <spdlog/spdlog.h>
#include <systemc>

#include "firmware/host/firmware_builder.h"
#include "app/firmware_phases.h"
#include "app/generator_estimate.h"
#include "app/inference_timer.h"
#include "app/layer_dump.h"
#include "app/activity_report.h"
#include "app/memory_occupancy.h"
#include "app/platform.h"
#include "app/run_console.h"
#include "app/firmware_device.h"
#include "app/run_options.h"
#include "app/run_report.h"
#include "tlm/trace_recorder.h"

namespace fs = std::filesystem;

namespace ai8x {

namespace {

// Files the generator writes for the Arm core; a folder without cnn.c/cnn.h
// is plain firmware (e.g. firmware/examples) and needs only main.c.
const char* const kGeneratedFiles[] = {"cnn.c", "cnn.h", "weights.h", "sampledata.h", "sampleoutput.h"};

// Empty when DIR can be built, else a message naming what is missing.
std::string check_vector_dir(const std::string& dir) {
    if (!fs::is_directory(dir)) return dir + ": no such directory";
    if (!fs::is_regular_file(fs::path(dir) / "main.c")) return (fs::path(dir) / "main.c").string() + ": missing";
    bool generated = fs::exists(fs::path(dir) / "cnn.c") || fs::exists(fs::path(dir) / "cnn.h");
    if (generated)
        for (const char* f : kGeneratedFiles)
            if (!fs::is_regular_file(fs::path(dir) / f))
                return (fs::path(dir) / f).string() + ": missing (generator output is incomplete)";
    return {};
}

std::string accelerator_ctl_summary(Accelerator& accel) {
    std::string s;
    const auto& q = accel.state().quadrant;
    for (size_t i = 0; i < q.size(); ++i)
        s += (i ? ", " : "") + std::string("q") + std::to_string(i) + " " + hex32(q[i].ctl);
    return "accelerator CTL: " + s + (accel.busy() ? " (busy)" : " (idle)");
}

}  // namespace

int run_command(const RunOptions& opts) {
    const auto wall_start = std::chrono::steady_clock::now();
    // Without DIR, run the project's own hand-programmed layer (read-only
    // source folder; the builder compiles into its cache, not into it).
    const std::string vector_dir =
        opts.vector_dir.empty() ? std::string(AI8XSIM_SOURCE_DIR "/firmware/examples/first_layer") : opts.vector_dir;

    if (std::string problem = check_vector_dir(vector_dir); !problem.empty()) {
        std::fprintf(stderr, "ai8xsim run: %s\n", problem.c_str());
        return kRunUsageError;
    }
    // The firmware names its device; without --config its description is used,
    // with --config the two must agree (the code would program another chip).
    const std::vector<DeviceConfig> known = bundled_device_configs();
    const FirmwareDevice target = detect_firmware_device(vector_dir, known);
    std::string config_path = opts.config_path;
    if (config_path.empty()) {
        config_path = default_device_config_path();
        for (const DeviceConfig& d : known)
            if (d.name == target.device) config_path = d.source_path;
    }
    DeviceConfig cfg;
    try {
        cfg = load_device_config(config_path);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "ai8xsim run: %s\n", e.what());
        return kRunUsageError;
    }
    if (!target.device.empty() && target.device != cfg.name) {
        std::fprintf(stderr,
                     "ai8xsim run: %s: the firmware was generated for the %s (%s), but %s describes the %s; "
                     "drop --config or give the %s description\n",
                     vector_dir.c_str(), target.device.c_str(), target.evidence.c_str(), config_path.c_str(),
                     cfg.name.c_str(), target.device.c_str());
        return kRunUsageError;
    }
    if (!target.device.empty()) spdlog::info("device: {} ({})", cfg.name, target.evidence);

    FirmwareBuild build;
    try {
        build = FirmwareBuilder(cfg, opts.build_dir).build(vector_dir);
    } catch (const BuildError& e) {
        std::fprintf(stderr, "ai8xsim run: %s\n%s", e.what(), e.compiler_output.c_str());
        return kRunUsageError;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "ai8xsim run: %s\n", e.what());
        return kRunUsageError;
    }
    if (build.memory_enlarged) {
        // The image does not fit the silicon's memories: run it on a board with
        // larger ones rather than refuse a valid test vector.
        for (auto& r : cfg.cpu_regions) {
            uint64_t need = r.writable ? build.sram_size : build.flash_size;
            if (need > r.size) {
                spdlog::warn("firmware needs {} KiB of {} but {} has {} KiB: simulating a larger {}", need / 1024,
                             r.name, cfg.name, r.size / 1024, r.name);
                r.size = need;
            }
        }
    }

    Platform platform(cfg);
    CortexM4& cpu = platform.add_cpu();
    Accelerator& accel = platform.accelerator();
    accel.set_capture_layers(!opts.dump_layers_dir.empty());
    // The firmware's cnn_disable() discards the data and bias memories; the
    // report's occupancy keeps what the network used before that.
    std::vector<RunReport::MemoryUse> memory_before_power_off;
    accel.power().before_memory_loss = [&memory_before_power_off, &accel] {
        keep_fuller_occupancy(memory_before_power_off, memory_occupancy(accel.state()));
    };
    try {
        cpu.load_elf(build.elf_path);
        for (const auto& o : opts.overrides) accel.add_register_override(o.address, o.value);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "ai8xsim run: %s\n", e.what());
        return kRunUsageError;
    }

    std::ofstream trace_file;
    std::unique_ptr<TraceRecorder> recorder;
    if (!opts.trace_out.empty()) {
        trace_file.open(opts.trace_out);
        if (!trace_file) {
            std::fprintf(stderr, "ai8xsim run: %s: cannot write trace\n", opts.trace_out.c_str());
            return kRunUsageError;
        }
        recorder = std::make_unique<TraceRecorder>(trace_file, "cpu");
        for (const auto& w : accel.windows()) recorder->add_window(w.base, w.size, w.name);
        platform.bus().add_observer(recorder.get());
        auto to_cpu = accel.on_irq;
        TraceRecorder* rec = recorder.get();
        accel.on_irq = [to_cpu, rec](bool level) {
            rec->on_irq(level, sc_core::sc_time_stamp());
            to_cpu(level);
        };
    }

    // Installed after the trace recorder so its IRQ hook wraps the recorder's.
    InferenceTimer inference_timer(accel.state());
    platform.bus().add_observer(&inference_timer);
    {
        auto next = accel.on_irq;
        accel.on_irq = [next, &inference_timer](bool level) {
            inference_timer.on_irq(level);
            if (next) next(level);
        };
    }

    FirmwarePhases phases;
    phases.attach(cpu);

    RunConsole console(opts.quiet_console ? nullptr : stdout);
    std::optional<int> exit_code;
    SimControl& sim = platform.peripherals().sim_control();
    sim.on_console = [&](char c) {
        // Generated fail() spins forever after printing: stop at the verdict.
        if (console.put(c) == Verdict::kFail) {
            cpu.halt();
            sc_core::sc_stop();
        }
    };
    sim.on_exit = [&](int code) {
        exit_code = code;
        cpu.halt();
        sc_core::sc_stop();
    };
    cpu.on_error = [](const std::string&) { sc_core::sc_stop(); };

    sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    const sc_core::sc_time limit(opts.timeout_ms, sc_core::SC_MS);
    sc_core::sc_start(limit);
    if (recorder) recorder->flush();

    RunReport report;
    int rc;
    // A --set whose register the firmware never writes changes nothing; say so, or a
    // sweep over it would look like the register has no effect.
    for (uint64_t address : accel.unapplied_register_overrides()) {
        const std::string message = fmt::format(
            "--set 0x{:08x}: the firmware never wrote this register, so the override had no effect", address);
        spdlog::warn("{}", message);
        report.warnings.push_back({-1, "", -1, fmt::format("0x{:08x}", address), "override_unused", 1, message});
    }
    if (cpu.error()) {
        report.error = *cpu.error() + "; " + accelerator_ctl_summary(accel);
        rc = kRunSimError;
    } else if (console.verdict() == Verdict::kFail) {
        rc = kRunFail;
    } else if (exit_code) {
        rc = *exit_code == 0 ? kRunPass : kRunFail;
        if (*exit_code != 0) spdlog::info("firmware exited with code {}", *exit_code);
    } else {
        bool starved = sc_core::sc_time_stamp() < limit;
        report.error =
            std::string(starved ? "the CPU sleeps and nothing is left to wake it"
                                : "no verdict within " + std::to_string(opts.timeout_ms) + " ms of simulated time") +
            ": PC " + hex32(cpu.pc()) + " (" + cpu.describe(cpu.pc()) + "); " + accelerator_ctl_summary(accel);
        rc = kRunSimError;
    }
    if (report.error) std::fprintf(stderr, "ai8xsim run: %s\n", report.error->c_str());
    report.phases = phases.times(accel.busy_cycles(), accel.cnn_clock_hz());
    if (!opts.quiet_console)
        std::printf("\n[ai8xsim] %llu CNN cycles; simulated time per phase: %s\n",
                    static_cast<unsigned long long>(accel.busy_cycles()), format_phases(report.phases).c_str());

    if (!opts.dump_layers_dir.empty()) {
        try {
            write_layer_dumps(accel.last_result().outputs, opts.dump_layers_dir);
            spdlog::info("wrote {} layer dumps to {}", accel.last_result().outputs.size(), opts.dump_layers_dir);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "ai8xsim run: %s\n", e.what());
            if (rc == kRunPass) rc = kRunSimError;
        }
    }

    if (!opts.json_out.empty()) {
        report.result = rc == kRunPass ? "pass" : rc == kRunFail ? "fail" : "error";
        report.vector = vector_dir;
        report.cnn_clock_hz = accel.cnn_clock_hz();
        std::optional<GeneratorEstimate> estimate;
        try {
            estimate = read_generator_estimate(vector_dir);
        } catch (const std::exception& e) {
            spdlog::warn("{}; the report has no latency estimate", e.what());
        }
        if (estimate) report.estimate_total = estimate->total;
        const double peak_per_cycle = double(cfg.processors_total()) * cfg.timing.peak_macs_per_processor_cycle;
        report.console = console.text();
        report.cnn_cycles = accel.busy_cycles();
        report.stall_cycles = accel.last_timing().stall_cycles;
        report.dropped_words = accel.fifo_dropped_words();
        for (const auto& l : accel.last_result().layers) {
            std::optional<uint64_t> cycles;
            for (const auto& t : accel.last_timing().layers)
                if (t.layer == l.layer) cycles = uint64_t(t.cycles.total());
            std::optional<std::pair<uint64_t, uint64_t>> span;
            for (const auto& sp : accel.last_timing().stream_spans)
                if (sp.layer == l.layer) span = std::make_pair(sp.first, sp.last);
            RunReport::Layer row;
            row.layer = l.layer;
            row.cycles = cycles;
            row.macs = l.macs;
            row.stream_span = span;
            if (estimate) {
                const auto e = estimate->layers.find(l.layer);
                if (e != estimate->layers.end()) row.estimate = e->second;
            }
            if (cycles && *cycles > 0) row.utilization = double(l.macs) / (double(*cycles) * peak_per_cycle);
            report.layers.push_back(row);
        }
        for (const auto& h : accel.last_result().hazards)
            report.hazards.push_back({h.layer, h.address, h.cycle, h.kind, h.count, h.message});
        const auto& quadrant_names = accel.state().names.quadrant;
        for (const auto& w : accel.last_result().warnings) {
            const bool known = w.quadrant >= 0 && size_t(w.quadrant) < quadrant_names.size();
            report.warnings.push_back({w.quadrant, known ? quadrant_names[size_t(w.quadrant)] : "", w.layer, w.reg,
                                       w.kind, w.count, w.message});
        }
        report.memory = std::move(memory_before_power_off);
        keep_fuller_occupancy(report.memory, memory_occupancy(accel.state()));
        std::vector<int> ran;
        for (const auto& l : accel.last_result().layers) ran.push_back(l.layer);
        std::sort(ran.begin(), ran.end());
        ran.erase(std::unique(ran.begin(), ran.end()), ran.end());
        if (!ran.empty()) report.activity = collect_activity(accel.state(), ran);
        report.sim_time_us = sc_core::sc_time_stamp().to_seconds() * 1e6;
        report.cpu_instructions = cpu.instructions();
        report.inference_wall_seconds = inference_timer.last_seconds();
        report.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
        try {
            write_run_report(report, opts.json_out);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "ai8xsim run: %s\n", e.what());
            if (rc == kRunPass) rc = kRunSimError;
        }
    }
    return rc;
}

}  // namespace ai8x
