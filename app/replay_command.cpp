#include "app/replay_command.h"

#include <cstdio>

#include <spdlog/spdlog.h>

#include "model/accelerator.h"
#include "app/platform.h"
#include "app/simulation_turn.h"
#include "tlm/device_config.h"
#include "tlm/trace_parser.h"

namespace ai8x {

namespace {

// Runs `trace` on a board of `cfg` to its end (or the kernel's).
void simulate_trace(const DeviceConfig& cfg, Trace trace, ReplayResult& result) {
    SimulationTurn turn;
    Platform platform(cfg);
    TracePlayer player("trace_player", std::move(trace));
    platform.bind_initiator(player.socket, "trace");
    // No CPU on this board: the accelerator's interrupt goes to the player.
    platform.bind_cnn_irq(player.irq_in);
    // The player ends the simulation when the trace is done; the kernel's
    // "stopped by user" note would only clutter stdout.
    sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    sc_core::sc_start();
    result.trace = player.result();
    result.sim_time_us = sc_core::sc_time_stamp().to_seconds() * 1e6;
}

}  // namespace

ReplayResult replay_in_process(const ReplayOptions& opts) {
    ReplayResult result;
    // Everything the user supplied is validated before the board is built.
    DeviceConfig cfg;
    Trace trace;
    try {
        cfg = load_device_config(opts.config_path.empty() ? default_device_config_path() : opts.config_path);
        trace = parse_trace_file(opts.trace_path);
    } catch (const ConfigError& e) {
        result.messages.push_back(e.what());
        return result;
    } catch (const TraceParseError& e) {
        result.messages.push_back(e.what());
        return result;
    }
    spdlog::info("replaying {} ({} commands) on {}", trace.source, trace.commands.size(), cfg.name);
    simulate_trace(cfg, std::move(trace), result);

    const TraceResult& r = result.trace;
    result.messages.insert(result.messages.end(), r.errors.begin(), r.errors.end());
    if (!r.finished) {
        result.messages.push_back("simulation stopped after " + std::to_string(r.commands_executed) +
                                  " command(s), before the trace ended");
        result.exit_code = kReplaySimError;
    } else if (!r.errors.empty()) {
        result.exit_code = kReplayBadInput;
    } else {
        result.exit_code = r.failures.empty() ? kReplayPass : kReplayCheckFailed;
    }
    return result;
}

int replay_command(const ReplayOptions& opts) {
    const ReplayResult r = replay_in_process(opts);
    // The messages in the order the command line has always printed them:
    // the input's or the trace's problems, the failed checks, then why an
    // unfinished simulation stopped.
    const size_t stop_note = r.exit_code == kReplaySimError ? 1 : 0;
    for (size_t i = 0; i + stop_note < r.messages.size(); ++i)
        std::fprintf(stderr, "ai8xsim replay: %s\n", r.messages[i].c_str());
    for (const TraceFailure& f : r.trace.failures) std::fprintf(stderr, "FAIL %s\n", f.message.c_str());
    if (stop_note) std::fprintf(stderr, "ai8xsim replay: %s\n", r.messages.back().c_str());
    if (!r.trace.finished) return r.exit_code;
    std::printf("replay: %zu command(s), %zu failed check(s), %.3f us simulated\n", r.trace.commands_executed,
                r.trace.failures.size(), r.sim_time_us);
    return r.exit_code;
}

}  // namespace ai8x
