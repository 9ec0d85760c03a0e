// The MAX78002 pipeline fit (app/timing_calibration.h): the fit recovers the
// cost of made-up points that follow the model exactly, leave-one-out
// predicts such points exactly, and on AN7664's points the device file holds
// the fit and every point left out is predicted within 5 % (docs/silicon-anchors.md).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "app/timing_calibration.h"
#include "testbench/unit/app/app_test_support.h"
#include "model/timing/pipeline.h"
#include "tlm/device_config.h"
#include "build_paths.h"

namespace timing_calibration_test {

using namespace ai8x;
namespace fs = std::filesystem;

const std::string kMax78002 = AI8XSIM_SOURCE_DIR "/configs/max78002.yaml";

// A point whose silicon cycles are exactly what a cost of `per_event` gives.
PipelinePoint exact_point(const std::string& name, double hz, uint64_t walk, uint64_t events, uint32_t per_event) {
    PipelinePoint p;
    p.measured = {name, hz, double(walk + events * per_event), "made up"};
    p.walk = walk;
    p.events = events;
    return p;
}

TEST_CASE("timing fit: points that follow the model give back their cost at each clock",
          "[timing][pipeline][calibration]") {
    // 9 cycles per event at 200 MHz and 7 at 100 MHz: fill 5 plus 16-20 ns.
    const std::vector<PipelinePoint> points = {
        exact_point("a", 200e6, 70000, 1100, 9), exact_point("b", 200e6, 230000, 3800, 9),
        exact_point("c", 200e6, 530000, 22000, 9), exact_point("d", 100e6, 70000, 770, 7)};
    const PipelineFit fit = fit_pipeline(points);
    CHECK(fit.exact_per_event.at(200e6) == Approx(9));
    CHECK(fit.exact_per_event.at(100e6) == Approx(7));
    CHECK(pipeline_output_cycles(fit.parameters, 200e6) == 9);
    CHECK(pipeline_output_cycles(fit.parameters, 100e6) == 7);
    CHECK(fit.parameters.output_fill_cycles == 5);
    CHECK(fit.parameters.output_sync_ns == 16);  // the least sync time of the equal fits
    for (const PipelinePrediction& r : leave_one_out(points)) {
        INFO(r.point->measured.vector);
        // Left out, a 200 MHz point is predicted by the other two exactly; the
        // 100 MHz point has no other point at its clock: no clock-dependent
        // part is fitted, so it gets the 200 MHz cost.
        CHECK(r.cycles == (r.point->measured.cnn_hz == 100e6 ? 70000 + 770 * 9 : r.point->measured.cycles));
    }
}

TEST_CASE("timing fit: the least-squares cost weighs each point by its relative error",
          "[timing][pipeline][calibration]") {
    // Two points asking for 10 and 14 cycles per event, the second with twice
    // the events per cycle of silicon time: the cost leans towards it.
    PipelinePoint a = exact_point("a", 200e6, 90000, 1000, 10);
    PipelinePoint b = exact_point("b", 200e6, 90000, 2000, 14);
    const PipelineFit fit = fit_pipeline({a, b});
    const double wa = 1000 / a.measured.cycles, wb = 2000 / b.measured.cycles;
    CHECK(fit.exact_per_event.at(200e6) == Approx((wa * wa * 10 + wb * wb * 14) / (wa * wa + wb * wb)));
    CHECK(fit.per_event.at(200e6) == uint32_t(std::lround(fit.exact_per_event.at(200e6))));
}

TEST_CASE(
    "timing fit: the MAX78002 device file holds the fit to AN7664, and each point left out is predicted "
    "within 5 %",
    "[timing][pipeline][calibration][max78002]") {
    const DeviceConfig cfg = load_device_config(kMax78002);
    const std::vector<PipelineMeasurement> measured = load_pipeline_calibration(kMax78002);
    REQUIRE(measured.size() == 5);
    std::vector<PipelinePoint> points;
    for (const PipelineMeasurement& m : measured)
        points.push_back(measure_pipeline_point(cfg, m, AI8XSIM_SHARED_DIR "/vectors-max78002"));
    const PipelineFit fit = fit_pipeline(points);
    CHECK(fit.parameters.output_fill_cycles == cfg.timing.pipeline.output_fill_cycles);
    CHECK(fit.parameters.output_sync_ns == cfg.timing.pipeline.output_sync_ns);
    std::printf("pipeline leave-one-out (vector, MHz, silicon, predicted, error):\n");
    for (const PipelinePrediction& r : leave_one_out(points)) {
        const PipelineMeasurement& m = r.point->measured;
        std::printf("  %-20s %4.0f %8.0f %8llu %+6.2f%%\n", m.vector.c_str(), m.cnn_hz / 1e6, m.cycles,
                    (unsigned long long)r.cycles, r.error_pct);
        INFO(m.vector << " at " << m.cnn_hz / 1e6 << " MHz");
        CHECK(std::fabs(r.error_pct) < 5.0);
    }
}

TEST_CASE("timing fit: a malformed calibration entry is refused naming the file and entry",
          "[timing][pipeline][calibration]") {
    const fs::path file = ai8x::test::scratch("timing-fit") / "device.yaml";
    std::ofstream(file) << "timing:\n  pipeline:\n    calibration:\n"
                           "      - { vector: a, cnn_mhz: 200, inference_us: 400, source: s }\n"
                           "      - { vector: b, cnn_mhz: 200, inference_us: 400, cycles: 80000, source: s }\n";
    CHECK_THROWS_WITH(load_pipeline_calibration(file.string()),
                      file.string() + ": timing.pipeline.calibration[1]: give either inference_us or cycles");
    std::ofstream(file) << "timing:\n  pipeline:\n    calibration:\n"
                           "      - { vector: a, cnn_mhz: fast, inference_us: 400, source: s }\n";
    CHECK_THROWS_WITH(load_pipeline_calibration(file.string()),
                      file.string() + ": timing.pipeline.calibration[0]: 'cnn_mhz' must be a number");
    CHECK_THROWS_WITH(load_pipeline_calibration("/nonexistent/device.yaml"),
                      Catch::Contains("/nonexistent/device.yaml"));
    fs::remove_all(file.parent_path());
}

}  // namespace timing_calibration_test
