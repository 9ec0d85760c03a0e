// Stages choose_device and build_firmware (run_stages.h).
#include <spdlog/spdlog.h>

#include "app/atomic_file.h"
#include "app/firmware_device.h"
#include "app/run_stages.h"
#include "build_paths.h"

namespace ai8x {

namespace {

// Refuses an output that cannot be written now, not after a long run.
void check_outputs_writable(RunContext& ctx) {
    for (const std::string* out : {&ctx.opts.vcd_out, &ctx.opts.timeline_out})
        if (!out->empty())
            if (std::string problem = check_writable(*out); !problem.empty()) ctx.stop(kRunUsageError, problem);
}

// The description of the device the firmware names (already read while
// deciding: parsing YAML is a good part of a short run's start), or the
// --config file. Throws on a file that cannot be read.
struct ChosenDevice {
    FirmwareDevice target;
    std::string config_path;
    DeviceConfig cfg;
};
ChosenDevice read_device(const RunContext& ctx) {
    std::optional<NamedDevice> named = device_named_by_firmware(ctx.vector_dir);
    const std::vector<DeviceConfig> known = named ? std::vector<DeviceConfig>{named->config} : bundled_device_configs();
    ChosenDevice d;
    d.target = named ? named->device : detect_firmware_device(ctx.vector_dir, known);
    d.config_path = ctx.opts.config_path;
    const DeviceConfig* bundled = nullptr;
    if (d.config_path.empty()) {
        d.config_path = default_device_config_path();
        for (const DeviceConfig& c : known)
            if (c.name == d.target.device) bundled = &c;
        if (bundled) d.config_path = bundled->source_path;
    }
    d.cfg = bundled ? *bundled : load_device_config(d.config_path);
    return d;
}

}  // namespace

void choose_device(RunContext& ctx) {
    // Without DIR, run the project's own hand-programmed layer (read-only
    // source folder; the builder compiles into its cache, not into it).
    ctx.vector_dir = ctx.opts.vector_dir.empty() ? std::string(AI8XSIM_SOURCE_DIR "/firmware/examples/first_layer")
                                                 : ctx.opts.vector_dir;
    check_outputs_writable(ctx);
    ctx.kind = folder_kind_for(ctx.vector_dir);
    ctx.result.folder_kind = ctx.kind->name();
    if (std::string problem = ctx.kind->check_folder(ctx.vector_dir); !problem.empty())
        ctx.stop(kRunUsageError, problem);
    ctx.kind->configure(ctx);
    // The firmware names its device; without --config its description is used,
    // with --config the two must agree (the code would program another chip).
    ChosenDevice d;
    try {
        d = read_device(ctx);
    } catch (const std::exception& e) {
        ctx.stop(kRunUsageError, e.what());
    }
    if (!d.target.device.empty() && d.target.device != d.cfg.name)
        ctx.stop(kRunUsageError,
                 fmt::format("{}: the firmware was generated for the {} ({}), but {} describes the {}; drop --config "
                             "or give the {} description",
                             ctx.vector_dir, d.target.device, d.target.evidence, d.config_path, d.cfg.name,
                             d.target.device));
    if (!d.target.device.empty()) spdlog::info("device: {} ({})", d.cfg.name, d.target.evidence);
    ctx.cfg = std::move(d.cfg);
}

void build_firmware(RunContext& ctx) {
    try {
        ctx.build = FirmwareBuilder(ctx.cfg, ctx.opts.build_dir).build(ctx.kind->firmware_sources(ctx));
    } catch (const BuildError& e) {
        ctx.stop(kRunUsageError, e.what(), e.compiler_output);
    } catch (const std::exception& e) {
        ctx.stop(kRunUsageError, e.what());
    }
    if (!ctx.build.memory_enlarged) return;
    // The image does not fit the silicon's memories: run it on a board with
    // larger ones rather than refuse a valid test vector.
    for (auto& r : ctx.cfg.cpu_regions) {
        const uint64_t need = r.writable ? ctx.build.sram_size : ctx.build.flash_size;
        if (need > r.size) {
            spdlog::warn("firmware needs {} KiB of {} but {} has {} KiB: simulating a larger {}", need / 1024, r.name,
                         ctx.cfg.name, r.size / 1024, r.name);
            r.size = need;
        }
    }
}

}  // namespace ai8x
