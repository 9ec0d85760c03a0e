// The camera of a run (docs/camera.md): a folder whose firmware reads the
// parallel camera interface, or any run given --camera FILE, gets a waveform
// on the interface's pins. Part of stage assemble_board (run_stages.h).
#include <fmt/format.h>

#include "app/camera_folder.h"
#include "app/run_stages.h"
#include "firmware/host/camera/camera_interface.h"

namespace ai8x {

namespace {

CameraInterface* camera_of(RunContext& ctx) {
    return dynamic_cast<CameraInterface*>(ctx.platform->peripherals().find(regs::pcif::kName));
}

}  // namespace

void connect_camera(RunContext& ctx) {
    const CameraRequest request = read_camera_request(ctx.vector_dir);
    if (!request.uses_camera && ctx.opts.camera_file.empty()) return;
    CameraInterface* pcif = camera_of(ctx);
    if (!pcif)
        ctx.stop(kRunUsageError, ctx.cfg.source_path + ": the device description has no camera interface (PCIF), " +
                                     (request.uses_camera ? request.evidence : "--camera"));
    try {
        CameraFeed feed = camera_feed_for_run(ctx.vector_dir, request, ctx.opts.camera_file, ctx.opts.camera_period_ns);
        feed.timing.sync_clock_hz = ctx.cfg.clocks.pclk_hz;
        const std::string line = fmt::format("camera: {}, {} rows, {}", feed.origin, feed.waveform.rows.size(),
                                             feed.timing.describe());
        pcif->connect(std::move(feed.waveform), feed.timing);
        ctx.say(line);
    } catch (const CameraInputError& e) {
        ctx.stop(kRunUsageError, e.what());
    }
}

std::string camera_stall(const RunContext& ctx) {
    CameraInterface* pcif = ctx.platform ? camera_of(const_cast<RunContext&>(ctx)) : nullptr;
    if (!pcif || !pcif->connected()) return {};
    return pcif->stall_reason();
}

}  // namespace ai8x
