#include "app/run_session.h"

#include "app/run_stages.h"
#include "app/simulation_turn.h"

namespace ai8x {

RunContext::RunContext(const RunOptions& options, const RunSinks& s)
    : opts(options),
      sinks(s),
      wall_start(std::chrono::steady_clock::now()),
      instruments(std::make_unique<RunInstruments>()) {}

void RunContext::say(const std::string& message, const std::string& detail) {
    result.messages.push_back(message);
    if (!detail.empty()) result.messages.push_back(detail);
    if (sinks.err) std::fprintf(sinks.err, "ai8xsim run: %s\n%s", message.c_str(), detail.c_str());
}

void RunContext::stop(int exit_code, const std::string& message, const std::string& detail) {
    say(message, detail);
    throw RunStopped(exit_code, message);
}

void RunContext::dismantle_board() {
    instruments.reset();
    cpu = nullptr;
    riscv = nullptr;
    accel = nullptr;
    platform.reset();
}

nlohmann::json RunResult::json() const {
    if (!started()) return nullptr;
    nlohmann::json document = run_report_json(report);
    if (kind_fields.is_object())
        for (const auto& [key, value] : kind_fields.items()) document[key] = value;
    return document;
}

RunResult run_in_process(const RunOptions& opts, const RunSinks& sinks) {
    RunContext ctx(opts, sinks);
    try {
        choose_device(ctx);
        build_firmware(ctx);
        SimulationTurn turn([&ctx] { ctx.dismantle_board(); });
        assemble_board(ctx);
        attach_instruments(ctx);
        simulate(ctx);
        decide_verdict(ctx);
        collect_results(ctx);
        write_outputs(ctx);
    } catch (const RunStopped& stopped) {
        ctx.result.exit_code = stopped.exit_code;
    }
    return std::move(ctx.result);
}

}  // namespace ai8x
