// Fitting the MAX78002 pipeline's cost (configs: timing.pipeline) to silicon
// times and measuring how well it predicts times it was not fitted on: shared
// by ai8xsim-timing-fit and its tests, so that docs/silicon-anchors.md shows
// what this code computes.
//
// The timing model is linear in the pipeline's cost: a network with the
// pipeline on takes walk + events x c cycles at a CNN clock where one output
// event costs c = output_fill_cycles + ceil(output_sync_ns x clock)
// (docs/timing-model.md, "MAX78002"). Each calibration point is timed twice
// from its cnn.c registers (c = 0 and c = 1) to get its walk and events.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model/accel_state.h"
#include "tlm/device_config.h"

namespace ai8x {

// One published silicon time of a network with the pipeline on
// (timing.pipeline.calibration of the device file).
struct PipelineMeasurement {
    std::string vector;  // golden-vector folder name
    double cnn_hz = 0;
    double cycles = 0;  // inference_us x clock, or cycles read from a figure
    std::string source;
};

// The list of the device file `path`; std::runtime_error naming the file and
// entry when malformed; empty when the file lists none.
std::vector<PipelineMeasurement> load_pipeline_calibration(const std::string& path);

// Stores the quadrant register writes of a generated cnn.c (every plain
// assignment, in file order) through register banks, as the bus would.
// Returns how many were stored; std::runtime_error when the file is unreadable.
int store_cnn_registers(AcceleratorState& state, const std::string& cnn_c);

// CNN cycles of the inference `state` holds at `cnn_hz`, with the master
// quadrant's PIPELINE_DIS set as `pipeline` says and the device's own pipeline cost.
uint64_t inference_cycles_at(AcceleratorState& state, bool pipeline, double cnn_hz);

struct PipelinePoint {
    PipelineMeasurement measured;
    uint64_t walk = 0;    // cycles without the pipeline's cost
    uint64_t events = 0;  // output events: cycles added per cycle of cost per event
    uint64_t cycles_at(uint32_t per_event) const { return walk + events * per_event; }
};

// The walk and events of `m`'s vector (found in `vectors_dir`) on device `cfg`.
PipelinePoint measure_pipeline_point(const DeviceConfig& cfg, const PipelineMeasurement& m,
                                     const std::string& vectors_dir);

// The fit: at each clock of the points, the cost per event that minimizes the
// squared relative errors of that clock's points, rounded to whole cycles;
// then the parameters that give those costs, with the least output_sync_ns
// (no clock-dependent part unless the points at two clocks call for one).
struct PipelineFit {
    std::map<double, double> exact_per_event;  // clock -> least-squares cost (not rounded)
    std::map<double, uint32_t> per_event;      // clock -> whole cycles
    AccelTiming::Pipeline parameters;
};
PipelineFit fit_pipeline(const std::vector<PipelinePoint>& points);

// Cycles the parameters give point `p`.
uint64_t predicted_cycles(const AccelTiming::Pipeline& parameters, const PipelinePoint& p);

// Leave-one-out: each point predicted by the fit on all the others.
struct PipelinePrediction {
    const PipelinePoint* point = nullptr;
    AccelTiming::Pipeline fitted;  // on the other points
    uint64_t cycles = 0;
    double error_pct = 0;
};
std::vector<PipelinePrediction> leave_one_out(const std::vector<PipelinePoint>& points);

}  // namespace ai8x
