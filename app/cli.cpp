#include "app/cli.h"

#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "app/info_command.h"
#include "app/register_override.h"
#include "app/replay_command.h"
#include "app/report_command.h"
#include "app/run_options.h"
#include "tlm/trace_number.h"

namespace ai8x {

void setup_logging(const std::string& level) {
    auto logger = std::make_shared<spdlog::logger>("ai8xsim", std::make_shared<spdlog::sinks::stderr_color_sink_mt>());
    logger->set_pattern("[%l] %v");
    spdlog::set_default_logger(logger);
    spdlog::set_level(spdlog::level::from_str(level));
}

namespace {

// Exit code for anything wrong with the command line, whatever the subcommand.
constexpr int kUsageError = 2;
// Exit code when the simulator itself fails (an exception nobody handled).
constexpr int kInternalError = 3;

// `run`'s on/off switches and its engine and debugger settings.
void add_run_switches(CLI::App& run, RunOptions& o) {
    run.add_flag("--check-memory,!--no-check-memory", o.check_memory,
                 "Report firmware stores that overrun variables, heap blocks or the stack (default: on)");
    run.add_flag("--poll-fast-forward,!--no-poll-fast-forward", o.fast_forward_polls,
                 "Count the passes of firmware FIFO polling loops instead of executing each while the status they "
                 "read cannot change (default: on, off under --gdb; cycles and results are the same either way)");
    run.add_flag("--fifo-run-ahead,!--no-fifo-run-ahead", o.fifo_run_ahead,
                 "Let the CPU push FIFO words and read FIFO_STAT without synchronising while no FIFO is full; each "
                 "word carries the CPU's instant and the accelerator takes it then; and leave out the CPU's waits at "
                 "quantum ends while nothing else is scheduled (default: on; cycles and results "
                 "are the same either way)");
    run.add_option("--threads", o.threads,
                   "Threads for the layer engine's large computations (default: 2 while a core is spare, or 1 on a "
                   "host with two cores or fewer; "
                   "1 = all on the simulation thread; results are the same for every N)")
        ->type_name("N")
        ->check(CLI::Range(1, 64));
    run.add_option("--gdb", o.gdb_port,
                   "Wait at reset for GDB on 127.0.0.1:PORT (0 = any free port; the port is printed)")
        ->type_name("PORT")
        ->check(CLI::Range(0, 65535));
}

// `run`: its options fill `o`; --set values are parsed after the command line.
CLI::App* add_run_command(CLI::App& app, RunOptions& o, std::vector<std::string>& overrides) {
    CLI::App* run =
        app.add_subcommand("run", "Build and run generated firmware (cnn.c, main.c, ...) on the virtual board");
    run->add_option("DIR", o.vector_dir, "Generator output folder (default: bundled example)")
        ->type_name("DIR")
        ->check(CLI::ExistingDirectory);
    run->add_option("--build-dir", o.build_dir, "Firmware build cache folder")->type_name("DIR");
    run->add_option("--config", o.config_path,
                    "Device description YAML (default: the one of the device the firmware was generated for)")
        ->type_name("FILE")
        ->check(CLI::ExistingFile);
    run->add_option("--json", o.json_out, "Write a machine-readable result to FILE")->type_name("FILE");
    run->add_option("--trace-out", o.trace_out, "Record the CPU's accelerator traffic as a trace to FILE")
        ->type_name("FILE");
    run->add_option("--dump-layers", o.dump_layers_dir, "Write every layer's output to DIR")->type_name("DIR");
    run->add_option("--vcd", o.vcd_out,
                    "Write the accelerator's signals (layers, FIFOs, stalls, IRQ, CPU sleep) as a VCD waveform to FILE")
        ->type_name("FILE");
    run->add_option("--timeline", o.timeline_out,
                    "Write phases, layers, stalls and interrupts as a Chrome trace-event JSON timeline to FILE")
        ->type_name("FILE");
    run->add_option("--camera", o.camera_file,
                    "Feed the camera interface from FILE: a .csv waveform, or a PNG/PPM/PGM picture (docs/camera.md)")
        ->type_name("FILE")
        ->check(CLI::ExistingFile);
    run->add_option("--camera-period", o.camera_period_ns, "Play the camera waveform at a row every NS nanoseconds")
        ->type_name("NS")
        ->check(CLI::PositiveNumber);
    run->add_option("--timeout", o.timeout_ms,
                    "Simulated milliseconds before giving up (an RTL-simulation folder: its run_test.sv's)")
        ->type_name("MS")
        ->check(CLI::PositiveNumber)
        ->capture_default_str()
        ->each([&o](const std::string&) { o.timeout_given = true; });
    run->add_option("--out", o.out_dir,
                    "RTL-simulation folder: write the testbench's run folder to DIR (data-output/ dumps beside "
                    "data-expected/, latency.txt, run_test.log) and run the folder's verify-output.py on it")
        ->type_name("DIR");
    run->add_option("--set", overrides, "Force a register: ADDR=VALUE (repeatable, hex or decimal)")
        ->type_name("ADDR=VALUE")
        ->allow_extra_args(false);
    run->add_flag("--quiet", o.quiet_console, "Do not copy the firmware console to stdout");
    add_run_switches(*run, o);
    return run;
}

CLI::App* add_replay_command(CLI::App& app, ReplayOptions& o) {
    CLI::App* replay = app.add_subcommand("replay", "Execute a bus trace on the virtual board and check it");
    replay->add_option("TRACE", o.trace_path, "Trace file (docs/trace-format.md)")->type_name("TRACE")->required();
    replay->add_option("--config", o.config_path, "Device description YAML (default: bundled MAX78000)")
        ->type_name("FILE")
        ->check(CLI::ExistingFile);
    return replay;
}

CLI::App* add_report_command(CLI::App& app, ReportOptions& o) {
    CLI::App* report = app.add_subcommand("report", "Render a run report (run --json) as a self-contained HTML page");
    report->add_option("RUN_JSON", o.run_json, "JSON written by `ai8xsim run --json`")
        ->type_name("RUN.json")
        ->required();
    report->add_option("-o,--output", o.html_out, "HTML page to write")->type_name("FILE")->required();
    report->add_option("--title", o.title, "Page title (default: the vector folder name)");
    return report;
}

CLI::App* add_info_command(CLI::App& app, InfoOptions& o) {
    CLI::App* info =
        app.add_subcommand("info", "Print the platform's module tree, address windows and register blocks");
    info->add_option("--config", o.config_path, "Device description YAML (default: bundled MAX78000)")
        ->type_name("FILE")
        ->check(CLI::ExistingFile);
    info->add_flag("--json", o.json, "Print the map as JSON");
    return info;
}

// The --set values of `run`, parsed; a malformed one is a command-line error.
void parse_overrides(const std::vector<std::string>& texts, RunOptions& o) {
    for (const std::string& text : texts) {
        const auto parsed = parse_register_override(text);
        if (!parsed) throw CLI::ValidationError("--set", "expected ADDR=VALUE with 32-bit numbers, got '" + text + "'");
        o.overrides.push_back(*parsed);
    }
}

}  // namespace

int cli_main(int argc, char* argv[]) {
    CLI::App app{
        "ai8xsim: virtual platform of the MAX78000 and MAX78002 CNN accelerators.\n"
        "Without a subcommand, runs the bundled example network."};
    app.set_version_flag("--version", std::string("ai8xsim ") + AI8XSIM_VERSION);
    std::string log_level = "warn";
    app.add_option("-v,--log-level", log_level, "Log verbosity")
        ->type_name("LEVEL")
        ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "critical", "off"}))
        ->capture_default_str();
    app.require_subcommand(0, 1);
    // Global options (e.g. -v) may also follow the subcommand's own options.
    app.fallthrough();

    RunOptions run_opts;
    std::vector<std::string> overrides;
    add_run_command(app, run_opts, overrides);
    ReplayOptions replay_opts;
    CLI::App* replay = add_replay_command(app, replay_opts);
    ReportOptions report_opts;
    CLI::App* report = add_report_command(app, report_opts);
    InfoOptions info_opts;
    CLI::App* info = add_info_command(app, info_opts);
    try {
        app.parse(argc, argv);
        parse_overrides(overrides, run_opts);
    } catch (const CLI::ParseError& e) {
        // --help and --version end here too, with exit code 0.
        return app.exit(e) == 0 ? 0 : kUsageError;
    }

    try {
        setup_logging(log_level);
        if (*replay) return replay_command(replay_opts);
        if (*report) return report_command(report_opts);
        if (*info) return info_command(info_opts);
        return run_command(run_opts);  // `run`, or no subcommand: the bundled example
    } catch (const std::exception& e) {
        std::fprintf(stderr, "ai8xsim: internal error: %s\n", e.what());
        return kInternalError;
    }
}

}  // namespace ai8x
