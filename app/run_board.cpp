// Stage assemble_board (run_stages.h).
#include "app/memory_occupancy.h"
#include "app/run_stages.h"
#include "model/engine/worker_pool.h"

namespace ai8x {

namespace {

void configure_accelerator(RunContext& ctx) {
    Accelerator& accel = *ctx.accel;
    accel.set_capture_layers(ctx.opts.capture_layers || !ctx.opts.dump_layers_dir.empty());
    // Without --threads the engine shares work only while a core is spare
    // (on a busy host a worker that is not scheduled at once slows the run
    // down), and not at all on two cores (WorkerPool::default_threads).
    if (ctx.opts.threads)
        accel.set_compute_threads(ctx.opts.threads);
    else
        accel.set_compute_threads(WorkerPool::default_threads(), true);
    std::vector<RunReport::MemoryUse>& kept = ctx.instruments->memory_before_power_off;
    accel.power().before_memory_loss = [&kept, &accel] {
        keep_fuller_occupancy(kept, memory_occupancy(accel.state()));
    };
}

// The images, the shortcuts the options allow, and the --set overrides; a
// bad image or override stops the run as a usage error.
void load_firmware(RunContext& ctx) {
    CortexM4& cpu = *ctx.cpu;
    try {
        cpu.load_elf(ctx.build.elf_path);
        if (ctx.riscv) ctx.riscv->load_elf(ctx.build.riscv_elf_path);
        // Under a debugger every pass of a polling loop runs: a breakpoint or
        // watchpoint there sees them all (CortexM4::attach_debugger says so too).
        const bool fast_forward = ctx.opts.fast_forward_polls && ctx.opts.gdb_port < 0;
        cpu.poll_fast_forward().enabled = fast_forward;
        if (ctx.riscv) ctx.riscv->poll_fast_forward().enabled = fast_forward;
        // A debugger reading the FIFOs while the CPU is stopped must see them
        // as at the CPU's instant, not with words stamped ahead of SystemC time.
        if (!ctx.opts.fifo_run_ahead || ctx.opts.gdb_port >= 0) cpu.access_settled = nullptr;
        for (const auto& o : ctx.opts.overrides) ctx.accel->add_register_override(o.address, o.value);
    } catch (const std::exception& e) {
        ctx.stop(kRunUsageError, e.what());
    }
}

}  // namespace

void assemble_board(RunContext& ctx) {
    ctx.platform = std::make_unique<Platform>(ctx.cfg);
    ctx.cpu = &ctx.platform->add_cpu();
    // A dual-core folder (--riscv): the RISC-V core runs cnn.c and main_riscv.c.
    if (!ctx.build.riscv_elf_path.empty()) ctx.riscv = &ctx.platform->add_riscv();
    ctx.accel = &ctx.platform->accelerator();
    configure_accelerator(ctx);
    load_firmware(ctx);
    ctx.kind->before_start(ctx);
    connect_camera(ctx);
}

}  // namespace ai8x
