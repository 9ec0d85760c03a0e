// ai8xsim-timing-fit CONFIG [--vectors DIR]: fits the pipeline cost of a
// device (CONFIG's timing.pipeline) to its silicon times
// (timing.pipeline.calibration) and validates the fit by leave-one-out: every
// point predicted by the fit on the others. Prints the points, the fit, the
// errors of the device file's parameters (in-sample) and the leave-one-out
// predictions with the worst of them. Exit 1 when the device file does not
// hold the fit. docs/silicon-anchors.md shows its output.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/timing_calibration.h"
#include "tlm/device_config.h"
#include "build_paths.h"

using namespace ai8x;

namespace {

double error_pct(uint64_t ours, double silicon) { return (double(ours) - silicon) / silicon * 100; }

void print_points(const std::vector<PipelinePoint>& points) {
    std::printf("%-20s %7s %10s %9s %7s %10s  %s\n", "vector", "MHz", "silicon", "walk", "events", "needs/evt",
                "source");
    for (const PipelinePoint& p : points)
        std::printf("%-20s %7.0f %10.0f %9llu %7llu %10.2f  %s\n", p.measured.vector.c_str(), p.measured.cnn_hz / 1e6,
                    p.measured.cycles, (unsigned long long)p.walk, (unsigned long long)p.events,
                    (p.measured.cycles - double(p.walk)) / double(p.events), p.measured.source.c_str());
}

void print_in_sample(const AccelTiming::Pipeline& file, const std::vector<PipelinePoint>& points) {
    std::printf("\nin-sample: the device file's parameters on the points they were fitted to\n");
    std::printf("%-20s %7s %10s %10s %8s\n", "vector", "MHz", "silicon", "ours", "error");
    for (const PipelinePoint& p : points) {
        const uint64_t ours = predicted_cycles(file, p);
        std::printf("%-20s %7.0f %10.0f %10llu %+7.2f%%\n", p.measured.vector.c_str(), p.measured.cnn_hz / 1e6,
                    p.measured.cycles, (unsigned long long)ours, error_pct(ours, p.measured.cycles));
    }
}

void print_loo(const std::vector<PipelinePrediction>& loo) {
    std::printf("\nleave-one-out: each point predicted by the fit on the other points\n");
    std::printf("%-20s %7s %10s %10s %8s  %s\n", "vector", "MHz", "silicon", "predicted", "error",
                "fit on the others (fill cycles, sync ns)");
    const PipelinePrediction* worst = nullptr;
    for (const PipelinePrediction& r : loo) {
        const PipelineMeasurement& m = r.point->measured;
        std::printf("%-20s %7.0f %10.0f %10llu %+7.2f%%  %u, %u\n", m.vector.c_str(), m.cnn_hz / 1e6, m.cycles,
                    (unsigned long long)r.cycles, r.error_pct, r.fitted.output_fill_cycles, r.fitted.output_sync_ns);
        if (!worst || std::fabs(r.error_pct) > std::fabs(worst->error_pct)) worst = &r;
    }
    if (worst)
        std::printf("worst predicted error: %+.2f %% (%s at %.0f MHz)\n", worst->error_pct,
                    worst->point->measured.vector.c_str(), worst->point->measured.cnn_hz / 1e6);
}

}  // namespace

// The SystemC library references sc_main even though this program never simulates.
extern "C" int sc_main(int, char**) { return 2; }

int main(int argc, char** argv) {
    std::string config_path;
    std::string vectors = AI8XSIM_SHARED_DIR "/vectors-max78002";
    CLI::App app{"Fits the pipeline cost of a device to its silicon times and validates it by leave-one-out"};
    app.add_option("CONFIG", config_path, "Device file with timing.pipeline and its calibration list")->required();
    app.add_option("--vectors", vectors, "Folder of the calibration points' vectors")->capture_default_str();
    CLI11_PARSE(app, argc, argv);
    try {
        const DeviceConfig cfg = load_device_config(config_path);
        const std::vector<PipelineMeasurement> measured = load_pipeline_calibration(config_path);
        if (!cfg.timing.pipeline.present || measured.size() < 2)
            throw std::runtime_error(config_path + ": no timing.pipeline with at least two calibration points");
        std::vector<PipelinePoint> points;
        for (const PipelineMeasurement& m : measured) points.push_back(measure_pipeline_point(cfg, m, vectors));
        print_points(points);
        const PipelineFit fit = fit_pipeline(points);
        std::printf("\nfit: least squares on relative error, whole cycles per output event\n");
        for (const auto& [hz, exact] : fit.exact_per_event)
            std::printf("  %5.0f MHz: %.2f -> %u cycles per event\n", hz / 1e6, exact, fit.per_event.at(hz));
        const AccelTiming::Pipeline& file = cfg.timing.pipeline;
        std::printf("  output_fill_cycles %u, output_sync_ns %u (the device file: %u, %u)\n",
                    fit.parameters.output_fill_cycles, fit.parameters.output_sync_ns, file.output_fill_cycles,
                    file.output_sync_ns);
        print_in_sample(file, points);
        print_loo(leave_one_out(points));
        const bool holds = fit.parameters.output_fill_cycles == file.output_fill_cycles &&
                           fit.parameters.output_sync_ns == file.output_sync_ns;
        std::printf("%s\n", holds ? "the device file holds the fit" : "the device file does NOT hold the fit");
        return holds ? 0 : 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "ai8xsim-timing-fit: %s\n", e.what());
        return 2;
    }
}
