#include "app/replay_command.h"

#include <cstdio>

#include <spdlog/spdlog.h>

#include "model/accelerator.h"
#include "app/platform.h"
#include "tlm/device_config.h"
#include "tlm/trace_parser.h"
#include "tlm/trace_player.h"

namespace ai8x {

int replay_command(const ReplayOptions& opts) {
    // Everything the user supplied is validated before the board is built.
    DeviceConfig cfg;
    Trace trace;
    try {
        cfg = load_device_config(opts.config_path.empty() ? default_device_config_path() : opts.config_path);
        trace = parse_trace_file(opts.trace_path);
    } catch (const ConfigError& e) {
        std::fprintf(stderr, "ai8xsim replay: %s\n", e.what());
        return kReplayBadInput;
    } catch (const TraceParseError& e) {
        std::fprintf(stderr, "ai8xsim replay: %s\n", e.what());
        return kReplayBadInput;
    }
    spdlog::info("replaying {} ({} commands) on {}", trace.source, trace.commands.size(), cfg.name);

    Platform platform(cfg);
    TracePlayer player("trace_player", std::move(trace));
    platform.bind_initiator(player.socket, "trace");
    // No CPU on this board: the accelerator's interrupt goes to the player.
    platform.accelerator().on_irq = [&player](bool level) { player.irq(level); };
    // The player ends the simulation when the trace is done; the kernel's
    // "stopped by user" note would only clutter stdout.
    sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    sc_core::sc_start();

    const TraceResult& r = player.result();
    for (const std::string& e : r.errors) std::fprintf(stderr, "ai8xsim replay: %s\n", e.c_str());
    for (const TraceFailure& f : r.failures) std::fprintf(stderr, "FAIL %s\n", f.message.c_str());
    if (!r.finished) {
        std::fprintf(stderr, "ai8xsim replay: simulation stopped after %zu command(s), before the trace ended\n",
                     r.commands_executed);
        return kReplaySimError;
    }
    std::printf("replay: %zu command(s), %zu failed check(s), %.3f us simulated\n", r.commands_executed,
                r.failures.size(), sc_core::sc_time_stamp().to_seconds() * 1e6);
    if (!r.errors.empty()) return kReplayBadInput;
    return r.failures.empty() ? kReplayPass : kReplayCheckFailed;
}

}  // namespace ai8x
