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
#include "firmware/host/memory_checker.h"
#include "firmware/host/gdb_server.h"
#include "firmware/host/gdb_stub.h"
#include "app/firmware_phases.h"
#include "app/generator_estimate.h"
#include "app/inference_timer.h"
#include "app/layer_dump.h"
#include "app/activity_report.h"
#include "app/energy_report.h"
#include "app/atomic_file.h"
#include "app/memory_occupancy.h"
#include "app/platform.h"
#include "app/run_console.h"
#include "app/firmware_device.h"
#include "app/run_options.h"
#include "app/run_report.h"
#include "app/timeline_writer.h"
#include "app/waveform_recorder.h"
#include "app/waveform_vcd.h"
#include "model/engine/worker_pool.h"
#include "tlm/trace_recorder.h"
#include "build_paths.h"

namespace fs = std::filesystem;

namespace ai8x {

namespace {

// Files the generator writes for the Arm core; a folder without cnn.c/cnn.h
// is plain firmware (e.g. firmware/examples) and needs only main.c.
const char* const kGeneratedFiles[] = {"cnn.c", "cnn.h", "weights.h", "sampledata.h", "sampleoutput.h"};
// check_output()'s return value for a match (CNN_OK in the generator's cnn.h).
constexpr uint32_t kGeneratedCnnOk = 1;

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

    // Refuse an output that cannot be written now, not after a long run.
    for (const std::string* out : {&opts.vcd_out, &opts.timeline_out})
        if (!out->empty())
            if (std::string problem = check_writable(*out); !problem.empty()) {
                std::fprintf(stderr, "ai8xsim run: %s\n", problem.c_str());
                return kRunUsageError;
            }

    if (std::string problem = check_vector_dir(vector_dir); !problem.empty()) {
        std::fprintf(stderr, "ai8xsim run: %s\n", problem.c_str());
        return kRunUsageError;
    }
    // The firmware names its device; without --config its description is used,
    // with --config the two must agree (the code would program another chip).
    std::optional<NamedDevice> named = device_named_by_firmware(vector_dir);
    const std::vector<DeviceConfig> known = named ? std::vector<DeviceConfig>{named->config} : bundled_device_configs();
    const FirmwareDevice target = named ? named->device : detect_firmware_device(vector_dir, known);
    std::string config_path = opts.config_path;
    const DeviceConfig* bundled = nullptr;  // already read: parsing YAML is a good part of a short run's start
    if (config_path.empty()) {
        config_path = default_device_config_path();
        for (const DeviceConfig& d : known)
            if (d.name == target.device) bundled = &d;
        if (bundled) config_path = bundled->source_path;
    }
    DeviceConfig cfg;
    try {
        cfg = bundled ? *bundled : load_device_config(config_path);
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
    // A dual-core folder (--riscv): the RISC-V core runs cnn.c and main_riscv.c.
    RiscvCore* riscv = build.riscv_elf_path.empty() ? nullptr : &platform.add_riscv();
    Accelerator& accel = platform.accelerator();
    accel.set_capture_layers(!opts.dump_layers_dir.empty());
    // Without --threads the engine shares work only while a core is spare
    // (on a busy host a worker that is not scheduled at once slows the run down).
    if (opts.threads)
        accel.set_compute_threads(opts.threads);
    else
        accel.set_compute_threads(WorkerPool::default_threads(), true);
    // The firmware's cnn_disable() discards the data and bias memories; the
    // report's occupancy keeps what the network used before that.
    std::vector<RunReport::MemoryUse> memory_before_power_off;
    accel.power().before_memory_loss = [&memory_before_power_off, &accel] {
        keep_fuller_occupancy(memory_before_power_off, memory_occupancy(accel.state()));
    };
    try {
        cpu.load_elf(build.elf_path);
        if (riscv) riscv->load_elf(build.riscv_elf_path);
        cpu.fast_forward_polls = opts.fast_forward_polls;
        if (riscv) riscv->fast_forward_polls = opts.fast_forward_polls;
        // A debugger reading the FIFOs while the CPU is stopped must see them
        // as at the CPU's instant, not with words stamped ahead of SystemC time.
        if (!opts.fifo_run_ahead || opts.gdb_port >= 0) cpu.fifo_access_settled = nullptr;
        for (const auto& o : opts.overrides) accel.add_register_override(o.address, o.value);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "ai8xsim run: %s\n", e.what());
        return kRunUsageError;
    }

    // --gdb: the port is opened now, so that a port in use is a usage error
    // before anything runs; the CPU then waits at reset for GDB.
    std::unique_ptr<gdb::Server> gdb_server;
    std::unique_ptr<GdbStub> gdb_stub;
    if (opts.gdb_port >= 0) {
        try {
            gdb_server = std::make_unique<gdb::Server>(static_cast<uint16_t>(opts.gdb_port));
        } catch (const gdb::SocketError& e) {
            std::fprintf(stderr, "ai8xsim run: --gdb: %s\n", e.what());
            return kRunUsageError;
        }
        gdb_stub = std::make_unique<GdbStub>(*gdb_server, cpu);
        std::fprintf(stderr, "gdb: listening on 127.0.0.1:%u, symbols in %s\n", unsigned(gdb_server->port()),
                     build.elf_path.c_str());
        std::fflush(stderr);
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
        if (riscv) {
            // The RISC-V core drives the accelerator, and feeds the fast FIFO (replayable on a CPU-less board).
            recorder->add_initiator("riscv");
            recorder->add_window(cfg.soc.fast_fifo.base, cfg.soc.fast_fifo.size, "fast_fifo");
            recorder->add_flow_control(cfg.soc.fast_fifo.base + FastFifo::kStatus, FastFifo::kStatusFull);
        }
        platform.bus().add_observer(recorder.get());
        cpu.fast_forward_polls = false;  // the trace records every status read
        if (riscv) riscv->fast_forward_polls = false;
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
    if (riscv)
        phases.attach(*riscv);
    else
        phases.attach(cpu);

    MemoryChecker memory_checker;
    const bool checking_memory = opts.check_memory && memory_checker.attach(cpu);
    // The known-answer test's own result, kept apart from how the run ended: a
    // firmware that corrupts memory after its check (generated main() calls
    // cnn_unload between check_output and the PASS line) may crash before it
    // prints the verdict.
    // In a dual-core folder the check is main_riscv.c's, on the RISC-V core.
    std::optional<bool> check_output_ok;
    for (UnicornCpu* core : {static_cast<UnicornCpu*>(&cpu), static_cast<UnicornCpu*>(riscv)}) {
        if (!core || !core->image()) continue;
        if (const auto check = core->image()->symbol("check_output"); check && !check->object)
            core->observe_calls(check->address, [&check_output_ok, core](sc_core::sc_time, sc_core::sc_time) {
                check_output_ok = core->return_value() == kGeneratedCnnOk;
            });
    }

    // --vcd / --timeline: the accelerator reports its events only to a recorder that exists.
    std::unique_ptr<WaveformRecorder> waves;
    if (!opts.vcd_out.empty() || !opts.timeline_out.empty()) {
        waves = std::make_unique<WaveformRecorder>();
        accel.set_observer(waves.get());
        WaveformRecorder* rec = waves.get();
        auto next = accel.on_irq;
        accel.on_irq = [next, rec, &accel](bool level) {
            rec->irq_changed(level, accel.now());
            if (next) next(level);
        };
        cpu.on_sleep_change = [rec](bool asleep) { rec->sleep_changed(asleep, sc_core::sc_time_stamp()); };
    }

    RunConsole console(opts.quiet_console ? nullptr : stdout);
    std::optional<int> exit_code;
    SimControl& sim = platform.peripherals().sim_control();
    sim.on_console = [&](char c) {
        // Generated fail() spins forever after printing: stop at the verdict.
        if (console.put(c) == Verdict::kFail) {
            cpu.halt();
            if (riscv) riscv->halt();
            sc_core::sc_stop();
        }
    };
    sim.on_exit = [&](int code) {
        exit_code = code;
        cpu.halt();
        if (riscv) riscv->halt();
        sc_core::sc_stop();
    };
    cpu.on_error = [](const std::string&) { sc_core::sc_stop(); };
    if (riscv) riscv->on_error = [](const std::string&) { sc_core::sc_stop(); };

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
    if (console.verdict() == Verdict::kPass)
        report.kat = "pass";
    else if (console.verdict() == Verdict::kFail)
        report.kat = "fail";
    else if (check_output_ok)
        report.kat = *check_output_ok ? "pass" : "fail";
    if (cpu.error()) {
        report.error = *cpu.error() + "; " + accelerator_ctl_summary(accel);
        rc = kRunSimError;
    } else if (riscv && riscv->error()) {
        report.error = "RISC-V core: " + *riscv->error() + "; " + accelerator_ctl_summary(accel);
        rc = kRunSimError;
    } else if (console.verdict() == Verdict::kFail) {
        rc = kRunFail;
    } else if (gdb_stub && gdb_stub->killed()) {
        report.error = "killed from GDB at PC " + hex32(cpu.pc()) + " (" + cpu.describe(cpu.pc()) + ")";
        rc = kRunSimError;
    } else if (exit_code) {
        rc = *exit_code == 0 ? kRunPass : kRunFail;
        if (*exit_code != 0) spdlog::info("firmware exited with code {}", *exit_code);
    } else {
        bool starved = sc_core::sc_time_stamp() < limit;
        report.error =
            std::string(starved ? "the CPU sleeps and nothing is left to wake it"
                                : "no verdict within " + std::to_string(opts.timeout_ms) + " ms of simulated time") +
            ": PC " + hex32(cpu.pc()) + " (" + cpu.describe(cpu.pc()) + ")" +
            (riscv ? std::string(riscv->released()
                                     ? ", RISC-V PC " + hex32(riscv->pc()) + " (" + riscv->describe(riscv->pc()) + ")"
                                     : ", RISC-V core never released")
                   : std::string()) +
            "; " + accelerator_ctl_summary(accel);
        rc = kRunSimError;
    }
    const std::vector<MemoryFault>& memory_faults = memory_checker.faults();
    if (report.error && !memory_faults.empty())
        *report.error += " (the firmware corrupted memory earlier: see the first memory-checker report: " +
                         memory_faults.front().summary() + ")";
    if (gdb_stub) gdb_stub->finish(rc);  // GDB sees the program exit with the run's exit code
    if (report.error) std::fprintf(stderr, "ai8xsim run: %s\n", report.error->c_str());
    if (report.error && report.kat == "pass")
        std::fprintf(stderr,
                     "ai8xsim run: the known-answer test passed before the run went wrong (%s); the exit code "
                     "is still %d: the firmware did not finish\n",
                     console.verdict() == Verdict::kPass ? "it printed *** PASS ***" : "check_output() returned CNN_OK",
                     kRunSimError);
    if (!memory_faults.empty()) {
        spdlog::warn("memory checker: {} site(s) corrupted memory:", memory_faults.size());
        for (const MemoryFault& f : memory_faults) spdlog::warn("  [{}] {}", f.kind, f.summary());
    }
    if (checking_memory) {
        report.firmware_faults.emplace();
        for (const MemoryFault& f : memory_faults)
            report.firmware_faults->push_back({f.kind, f.site, f.function, f.object, f.object_size, f.first_address,
                                               f.extent_past_end, f.count, f.first_us, f.first_instruction,
                                               f.summary()});
    }
    // The clock the inference ran at: MAX78002 firmware slows the CNN clock again afterwards.
    const double inference_hz = accel.inference_clock_hz() > 0 ? accel.inference_clock_hz() : accel.cnn_clock_hz();
    report.phases = phases.times(accel.busy_cycles(), inference_hz);
    std::vector<int> ran;
    for (const auto& l : accel.last_result().layers) ran.push_back(l.layer);
    std::sort(ran.begin(), ran.end());
    ran.erase(std::unique(ran.begin(), ran.end()), ran.end());
    if (!ran.empty()) {
        report.activity = collect_activity(accel.state(), ran);
        report.energy = energy_for_run(cfg.energy, energy_inputs(*report.activity, report.phases, inference_hz));
    }
    if (!opts.quiet_console && !riscv)
        std::printf("\n[ai8xsim] %llu CNN cycles; simulated time per phase: %s\n",
                    static_cast<unsigned long long>(accel.busy_cycles()), format_phases(report.phases).c_str());
    if (!opts.quiet_console && riscv)
        std::printf(
            "\n[ai8xsim] %llu CNN cycles; instructions: cpu %llu, riscv %llu; "
            "simulated time per phase (riscv): %s\n",
            static_cast<unsigned long long>(accel.busy_cycles()), static_cast<unsigned long long>(cpu.instructions()),
            static_cast<unsigned long long>(riscv->instructions()), format_phases(report.phases).c_str());
    if (!opts.quiet_console && report.energy) std::printf("[ai8xsim] %s\n", energy_summary(*report.energy).c_str());

    if (!opts.dump_layers_dir.empty()) {
        try {
            write_layer_dumps(accel.last_result().outputs, opts.dump_layers_dir);
            spdlog::info("wrote {} layer dumps to {}", accel.last_result().outputs.size(), opts.dump_layers_dir);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "ai8xsim run: %s\n", e.what());
            if (rc == kRunPass) rc = kRunSimError;
        }
    }

    if (waves) {
        // Written whatever the verdict: a failed run is what one wants to look at.
        waves->run_ended(sc_core::sc_time_stamp());
        std::vector<std::string> quadrants = accel.state().names.quadrant;
        try {
            if (!opts.vcd_out.empty()) {
                WaveformLayout layout;  // scopes named as the module tree names the blocks
                layout.quadrant_scopes = quadrants;
                layout.fifo_count = cfg.fifo_count;
                layout.cnn_scope = accel.name();
                layout.fifo_scope = accel.fifo_block().name();
                layout.stream_scope = std::string(accel.name()) + ".stream";
                layout.cpu_scope = cpu.name();
                write_waveform_vcd(*waves, layout, opts.vcd_out);
            }
            if (!opts.timeline_out.empty()) write_timeline(*waves, phases.spans(), quadrants, opts.timeline_out);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "ai8xsim run: %s\n", e.what());
            if (rc == kRunPass) rc = kRunSimError;
        }
    }

    if (!opts.json_out.empty()) {
        report.result = rc == kRunPass ? "pass" : rc == kRunFail ? "fail" : "error";
        report.vector = vector_dir;
        report.cnn_clock_hz = inference_hz;
        report.cnn_pipeline = accel.inference_pipelined();
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
        for (unsigned i = 0; i < cfg.fifo_count; ++i)
            if (accel.fifo_starved_fifos() >> i & 1) report.starved_fifos.push_back(i);
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
        report.sim_time_us = sc_core::sc_time_stamp().to_seconds() * 1e6;
        report.cpu_instructions = cpu.instructions();
        if (riscv) {
            report.riscv_instructions = riscv->instructions();
            report.phases_core = "riscv";
        }
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
