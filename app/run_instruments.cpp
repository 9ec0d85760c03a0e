// Stage attach_instruments (run_stages.h). Each instrument that follows the
// accelerator's interrupt wraps the hook installed before it, so the order
// here is the order they see an interrupt in: the waveform recorder, the
// inference timer, the trace recorder, then the cores.
#include <systemc>

#include "app/run_stages.h"

namespace ai8x {

namespace {

// --gdb: the port is opened now, so that a port in use is a usage error
// before anything runs; the CPU then waits at reset for GDB.
void attach_debugger(RunContext& ctx) {
    RunInstruments& in = *ctx.instruments;
    try {
        in.gdb_server = std::make_unique<gdb::Server>(static_cast<uint16_t>(ctx.opts.gdb_port));
    } catch (const gdb::SocketError& e) {
        ctx.stop(kRunUsageError, std::string("--gdb: ") + e.what());
    }
    in.gdb_stub = std::make_unique<GdbStub>(*in.gdb_server, *ctx.cpu);
    if (ctx.sinks.err) {
        std::fprintf(ctx.sinks.err, "gdb: listening on 127.0.0.1:%u, symbols in %s\n", unsigned(in.gdb_server->port()),
                     ctx.build.elf_path.c_str());
        std::fflush(ctx.sinks.err);
    }
}

// --trace-out: every access of the cores to the accelerator (and, with a
// RISC-V core, to the fast FIFO), and the interrupt line.
void attach_trace_recorder(RunContext& ctx) {
    RunInstruments& in = *ctx.instruments;
    in.trace_file.open(ctx.opts.trace_out);
    if (!in.trace_file) ctx.stop(kRunUsageError, ctx.opts.trace_out + ": cannot write trace");
    in.recorder = std::make_unique<TraceRecorder>(in.trace_file, "cpu");
    TraceRecorder* rec = in.recorder.get();
    for (const auto& w : ctx.accel->windows()) rec->add_window(w.base, w.size, w.name);
    if (ctx.riscv) {
        // The RISC-V core drives the accelerator, and feeds the fast FIFO (replayable on a CPU-less board).
        const FastFifo& fast = ctx.accel->fast_fifo();
        rec->add_initiator("riscv");
        rec->add_window(fast.base(), fast.size(), "fast_fifo");
        rec->add_flow_control(fast.status_address(), fast.full_mask());
    }
    ctx.platform->bus().add_observer(rec);
    ctx.cpu->poll_fast_forward().enabled = false;  // the trace records every status read
    if (ctx.riscv) ctx.riscv->poll_fast_forward().enabled = false;
    ctx.platform->listen_cnn_irq("trace_recorder", [rec](bool level) { rec->on_irq(level, sc_core::sc_time_stamp()); });
}

void attach_inference_timer(RunContext& ctx) {
    ctx.instruments->inference_timer = std::make_unique<InferenceTimer>(ctx.accel->state());
    InferenceTimer* timer = ctx.instruments->inference_timer.get();
    ctx.platform->bus().add_observer(timer);
    ctx.platform->listen_cnn_irq("inference_timer", [timer](bool level) { timer->on_irq(level); });
}

// --vcd / --timeline: the accelerator reports its events only to a recorder that exists.
void attach_waveform_recorder(RunContext& ctx) {
    ctx.instruments->waves = std::make_unique<WaveformRecorder>();
    WaveformRecorder* rec = ctx.instruments->waves.get();
    Accelerator& accel = *ctx.accel;
    accel.set_observer(rec);
    ctx.platform->listen_cnn_irq("waveform_recorder",
                                 [rec, &accel](bool level) { rec->irq_changed(level, accel.now()); });
    ctx.cpu->on_sleep_change = [rec](bool asleep) { rec->sleep_changed(asleep, sc_core::sc_time_stamp()); };
}

// The firmware's console, its exit, and the cores' errors end the simulation.
void attach_console(RunContext& ctx) {
    ctx.instruments->console = std::make_unique<RunConsole>(ctx.out());
    CortexM4* cpu = ctx.cpu;
    RiscvCore* riscv = ctx.riscv;
    const auto stop_cores = [cpu, riscv] {
        cpu->halt();
        if (riscv) riscv->halt();
        sc_core::sc_stop();
    };
    SimControl& sim = ctx.platform->peripherals().sim_control();
    RunConsole* console = ctx.instruments->console.get();
    sim.on_console = [console, stop_cores](char c) {
        // Generated fail() spins forever after printing: stop at the verdict.
        if (console->put(c) == Verdict::kFail) stop_cores();
    };
    std::optional<int>* exit = &ctx.instruments->firmware_exit;
    sim.on_exit = [exit, stop_cores](int code) {
        *exit = code;
        stop_cores();
    };
    cpu->on_error = [](const std::string&) { sc_core::sc_stop(); };
    if (riscv) riscv->on_error = [](const std::string&) { sc_core::sc_stop(); };
}

}  // namespace

void attach_instruments(RunContext& ctx) {
    if (ctx.opts.gdb_port >= 0) attach_debugger(ctx);
    if (!ctx.opts.trace_out.empty()) attach_trace_recorder(ctx);
    attach_inference_timer(ctx);
    RunInstruments& in = *ctx.instruments;
    if (ctx.riscv)
        in.phases.attach(*ctx.riscv);
    else
        in.phases.attach(*ctx.cpu);
    in.checking_memory = ctx.opts.check_memory && in.memory_checker.attach(*ctx.cpu);
    if (!ctx.opts.vcd_out.empty() || !ctx.opts.timeline_out.empty()) attach_waveform_recorder(ctx);
    attach_console(ctx);
    ctx.kind->attach(ctx);
}

}  // namespace ai8x
