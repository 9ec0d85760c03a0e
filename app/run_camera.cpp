// The camera of a run (docs/camera.md): a folder whose firmware reads the
// parallel camera interface, or any run given --camera FILE, gets a waveform
// on the interface's pins. Part of stage assemble_board (run_stages.h), after
// the kind's own board parts (an RTL folder's testbench block).
#include <cstdio>

#include "app/camera_folder.h"
#include "app/run_stages.h"
#include "firmware/host/camera/camera_interface.h"

namespace ai8x {

void connect_camera(RunContext& ctx) {
    const CameraRequest request = read_camera_request(ctx.vector_dir);
    if (!request.uses_camera && ctx.opts.camera_file.empty()) return;
    CameraInterface* pcif = ctx.platform->camera();
    if (!pcif)
        ctx.stop(kRunUsageError, ctx.cfg.source_path + ": the device description has no camera interface (PCIF), " +
                                     (request.uses_camera ? request.evidence : "--camera"));
    // The generator's camera programs, embedded-C ones too, start the stream
    // as its RTL testbench wants: sim->trig (run_test.sv's trig[0]).
    if (request.uses_camera && !ctx.platform->rtl_testbench()) ctx.platform->add_rtl_testbench();
    try {
        CameraFeed feed = camera_feed_for_run(ctx.vector_dir, request, ctx.opts.camera_file, ctx.opts.camera_period_ns);
        feed.timing.sync_clock_hz = ctx.cfg.clocks.pclk_hz;
        // Where the pixels come from and at what pace: information, not a problem (not said).
        if (std::FILE* out = ctx.out())
            std::fprintf(out, "[ai8xsim] camera: %s, %zu rows, %s\n", feed.origin.c_str(), feed.waveform.rows.size(),
                         feed.timing.describe().c_str());
        pcif->connect(std::move(feed.waveform), feed.timing);
    } catch (const CameraInputError& e) {
        ctx.stop(kRunUsageError, e.what());
    }
}

void collect_camera(RunContext& ctx) {
    const CameraInterface* pcif = ctx.platform ? ctx.platform->camera() : nullptr;
    if (!pcif || !pcif->connected()) return;
    const CameraInterface::Summary s = pcif->summary();
    ctx.result.kind_fields["camera"] = {
        {"source", s.source},
        {"pace", s.pace},
        {"rows", s.rows},
        {"rows_applied", s.rows_applied},
        {"started", s.started},
        {"finished", s.finished},
        {"frames", s.frames},
        {"words_captured", s.words_captured},
        {"words_read", s.words_read},
        {"words_lost", s.words_lost},
    };
}

std::string camera_stall(const RunContext& ctx) {
    const CameraInterface* pcif = ctx.platform ? ctx.platform->camera() : nullptr;
    if (!pcif || !pcif->connected()) return {};
    return pcif->stall_reason();
}

}  // namespace ai8x
