// Stages simulate and decide_verdict (run_stages.h).
#include <spdlog/spdlog.h>
#include <systemc>

#include "app/run_stages.h"
#include "model/engine/host_memory.h"

namespace ai8x {

namespace {

std::string accelerator_ctl_summary(Accelerator& accel) {
    std::string s;
    const auto& q = accel.state().quadrant;
    for (size_t i = 0; i < q.size(); ++i)
        s += (i ? ", " : "") + std::string("q") + std::to_string(i) + " " + hex32(q[i].ctl);
    return "accelerator CTL: " + s + (accel.busy() ? " (busy)" : " (idle)");
}

// A --set whose register the firmware never writes changes nothing; say so, or a
// sweep over it would look like the register has no effect.
void report_unused_overrides(RunContext& ctx) {
    for (uint64_t address : ctx.accel->unapplied_register_overrides()) {
        const std::string message = fmt::format(
            "--set 0x{:08x}: the firmware never wrote this register, so the override had no effect", address);
        spdlog::warn("{}", message);
        ctx.result.report.warnings.push_back(
            {-1, "", -1, fmt::format("0x{:08x}", address), "override_unused", 1, message});
    }
}

// The camera's part in a run that ended waiting, if it has one.
std::string camera_note(const RunContext& ctx) {
    const std::string stall = camera_stall(ctx);
    return stall.empty() ? std::string() : "; " + stall;
}

// Why a run without a verdict ended: the CPU sleeping with nothing to wake
// it, or the time-out; where the cores were.
std::string no_verdict_error(const RunContext& ctx) {
    const CortexM4& cpu = *ctx.cpu;
    const RiscvCore* riscv = ctx.riscv;
    const bool starved = sc_core::sc_time_stamp() < sc_core::sc_time(ctx.opts.timeout_ms, sc_core::SC_MS);
    std::string where = ": PC " + hex32(cpu.pc()) + " (" + cpu.describe(cpu.pc()) + ")";
    if (riscv)
        where += riscv->released() ? ", RISC-V PC " + hex32(riscv->pc()) + " (" + riscv->describe(riscv->pc()) + ")"
                                   : ", RISC-V core never released";
    return std::string(starved ? "the CPU sleeps and nothing is left to wake it"
                               : "no verdict within " + std::to_string(ctx.opts.timeout_ms) + " ms of simulated time") +
           where + "; " + accelerator_ctl_summary(*ctx.accel) + camera_note(ctx);
}

// The exit code, in this order of precedence: a core's fault, the
// firmware's declared failure, a kill from GDB, the firmware's exit code,
// and otherwise no verdict at all. Sets report.error where it is an error.
int outcome(RunContext& ctx) {
    RunReport& report = ctx.result.report;
    const CortexM4& cpu = *ctx.cpu;
    const RunInstruments& in = *ctx.instruments;
    if (cpu.error()) {
        report.error = *cpu.error() + "; " + accelerator_ctl_summary(*ctx.accel);
    } else if (ctx.riscv && ctx.riscv->error()) {
        report.error = "RISC-V core: " + *ctx.riscv->error() + "; " + accelerator_ctl_summary(*ctx.accel);
    } else if (ctx.kind->declared_failure(ctx)) {
        return kRunFail;
    } else if (in.gdb_stub && in.gdb_stub->killed()) {
        report.error = "killed from GDB at PC " + hex32(cpu.pc()) + " (" + cpu.describe(cpu.pc()) + ")";
    } else if (in.firmware_exit) {
        if (*in.firmware_exit != 0) spdlog::info("firmware exited with code {}", *in.firmware_exit);
        return *in.firmware_exit == 0 ? kRunPass : kRunFail;
    } else {
        report.error = no_verdict_error(ctx);
    }
    return kRunSimError;
}

// The memory checker's findings: on the log, and in the report when it was on.
void report_memory_faults(RunContext& ctx) {
    const RunInstruments& in = *ctx.instruments;
    const std::vector<MemoryFault>& faults = in.memory_checker.faults();
    log_memory_findings(faults);
    if (!in.checking_memory) return;
    auto& out = ctx.result.report.firmware_faults.emplace();
    for (const MemoryFault& f : faults)
        out.push_back({f.kind, f.site, f.function, f.object, f.object_size, f.first_address, f.extent_past_end, f.count,
                       f.first_us, f.first_instruction, f.summary()});
}

}  // namespace

void simulate(RunContext& ctx) {
    sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    const sc_core::sc_time limit(ctx.opts.timeout_ms, sc_core::SC_MS);
    // Quantum ends with nothing to wait for are owed, as FIFO accesses run
    // ahead: not under a debugger (it looks at the simulation between steps).
    if (ctx.cpu && ctx.opts.fifo_run_ahead && ctx.opts.gdb_port < 0) ctx.cpu->defer_quantum_ends(limit);
    // The layer engine's buffers come from pages touched now, not at their
    // first use in an inference (model/engine/host_memory.h): as much as the
    // data memory holds, and kFirmwareHeap for what the firmware's run takes
    // from the heap before its first inference (the CPU's translated code:
    // 1.3 MiB for the kws20 demos).
    constexpr std::size_t kFirmwareHeap = std::size_t{4} << 20;
    if (ctx.accel) {
        const DeviceConfig& device = ctx.accel->state().cfg;
        prepare_engine_memory(kFirmwareHeap + std::size_t{device.data_sram.words} * (device.data_sram.word_bits / 8) *
                                                  device.data_sram.instances_total(device.quadrants));
    }
    sc_core::sc_start(limit);
    if (ctx.instruments->recorder) ctx.instruments->recorder->flush();
}

void decide_verdict(RunContext& ctx) {
    RunReport& report = ctx.result.report;
    report_unused_overrides(ctx);
    report.kat = ctx.kind->known_answer(ctx);
    const int rc = ctx.result.exit_code = outcome(ctx);
    const std::vector<MemoryFault>& faults = ctx.instruments->memory_checker.faults();
    if (report.error && !faults.empty())
        *report.error += " (the firmware corrupted memory earlier: see the memory checker's first finding: " +
                         memory_findings(faults).front().summary() + ")";
    if (ctx.instruments->gdb_stub) ctx.instruments->gdb_stub->finish(rc);  // GDB sees the program exit with this code
    if (report.error) ctx.say(*report.error);
    if (report.error && report.kat == "pass")
        ctx.say(
            fmt::format("the known-answer test passed before the run went wrong ({}); the exit code is still "
                        "{}: the firmware did not finish",
                        ctx.kind->known_answer_evidence(ctx), int(kRunSimError)));
    report_memory_faults(ctx);
}

}  // namespace ai8x
