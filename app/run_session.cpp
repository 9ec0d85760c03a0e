#include "app/run_session.h"

#include <mutex>
#include <set>

#include <systemc>

#include "app/run_stages.h"

namespace ai8x {

namespace {

// True while no design was elaborated in the current simulation context.
bool context_unused() {
    return sc_core::sc_get_status() == sc_core::SC_ELABORATION && sc_core::sc_get_top_level_objects().empty();
}

// A run's turn at the process's SystemC kernel: one at a time, each on a
// kernel of its own. On entry a used kernel is set aside, not deleted: its
// owner may still hold its objects. On exit the run's board goes, then its
// kernel, and a fresh one takes its place, so that nothing of the run
// outlives it. The process's first kernel is never deleted: the SystemC
// library's own static events (sc_event::none) belong to it.
class SimulationTurn {
public:
    explicit SimulationTurn(RunContext& ctx) : lock_(mutex()), ctx_(ctx) {
        if (!context_unused()) install_fresh_context();
    }
    ~SimulationTurn() {
        ctx_.dismantle_board();
        sc_core::sc_simcontext* used = sc_core::sc_curr_simcontext;
        install_fresh_context();
        if (made_here().erase(used)) delete used;
    }
    SimulationTurn(const SimulationTurn&) = delete;
    SimulationTurn& operator=(const SimulationTurn&) = delete;

private:
    static std::mutex& mutex() {
        static std::mutex m;
        return m;
    }
    // The kernels this class made (and may delete); guarded by mutex().
    static std::set<sc_core::sc_simcontext*>& made_here() {
        static std::set<sc_core::sc_simcontext*> made;
        return made;
    }
    static void install_fresh_context() {
        sc_core::sc_curr_simcontext = new sc_core::sc_simcontext;
        sc_core::sc_default_global_context = sc_core::sc_curr_simcontext;
        made_here().insert(sc_core::sc_curr_simcontext);
    }
    std::lock_guard<std::mutex> lock_;
    RunContext& ctx_;
};

}  // namespace

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
        SimulationTurn turn(ctx);
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
