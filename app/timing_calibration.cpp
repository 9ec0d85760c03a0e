#include "app/timing_calibration.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <regex>
#include <stdexcept>

#include <yaml-cpp/yaml.h>

#include "model/registers/quadrant_registers.h"
#include "model/registers/register_fields.h"
#include "model/sequencing.h"
#include "model/timing/inference_cycles.h"
#include "model/timing/pipeline.h"
#include "tlm/register_bank.h"
#include "tlm/yaml_reader.h"

namespace ai8x {

namespace {

namespace fs = std::filesystem;

// The search space of the fit: far beyond any cost the points could ask for.
constexpr uint32_t kMaxFillCycles = 256;
constexpr uint32_t kMaxSyncNs = 1000;

double number(const YAML::Node& e, const char* key, const std::string& where) {
    try {
        return e[key].as<double>();
    } catch (const YAML::Exception&) {
        throw std::runtime_error(where + ": '" + key + "' must be a number");
    }
}

PipelineMeasurement read_measurement(const YAML::Node& e, const std::string& where) {
    if (!e.IsMap() || !e["vector"] || !e["cnn_mhz"] || !e["source"])
        throw std::runtime_error(where + ": needs vector, cnn_mhz, source and inference_us or cycles");
    PipelineMeasurement m;
    m.vector = e["vector"].as<std::string>();
    m.source = e["source"].as<std::string>();
    m.cnn_hz = number(e, "cnn_mhz", where) * 1e6;
    if (e["inference_us"] && !e["cycles"])
        m.cycles = number(e, "inference_us", where) * m.cnn_hz * 1e-6;
    else if (e["cycles"] && !e["inference_us"])
        m.cycles = number(e, "cycles", where);
    else
        throw std::runtime_error(where + ": give either inference_us or cycles");
    if (m.cnn_hz <= 0 || m.cycles <= 0) throw std::runtime_error(where + ": clock and time must be positive");
    return m;
}

// Squared relative error of `parameters` over `points`.
double misfit(const AccelTiming::Pipeline& parameters, const std::vector<const PipelinePoint*>& points) {
    double sum = 0;
    for (const PipelinePoint* p : points) {
        const double e = (double(predicted_cycles(parameters, *p)) - p->measured.cycles) / p->measured.cycles;
        sum += e * e;
    }
    return sum;
}

// The whole-number parameters of least misfit; among equals the least sync
// time, then the fewest fill cycles.
AccelTiming::Pipeline best_parameters(const std::vector<const PipelinePoint*>& points) {
    AccelTiming::Pipeline best, p;
    best.present = p.present = true;
    double best_misfit = std::numeric_limits<double>::infinity();
    for (p.output_sync_ns = 0; p.output_sync_ns <= kMaxSyncNs; ++p.output_sync_ns)
        for (p.output_fill_cycles = 0; p.output_fill_cycles <= kMaxFillCycles; ++p.output_fill_cycles) {
            const double m = misfit(p, points);
            if (m < best_misfit * (1 - 1e-12)) {
                best_misfit = m;
                best = p;
            }
        }
    return best;
}

PipelineFit fit_rows(const std::vector<const PipelinePoint*>& points) {
    PipelineFit f;
    std::map<double, std::pair<double, double>> sums;  // clock -> sum(a*b), sum(a*a)
    for (const PipelinePoint* p : points) {
        // Relative error: (walk + events x c - t) / t, linear in c with slope events / t.
        const double a = double(p->events) / p->measured.cycles;
        const double b = (p->measured.cycles - double(p->walk)) / p->measured.cycles;
        sums[p->measured.cnn_hz].first += a * b;
        sums[p->measured.cnn_hz].second += a * a;
    }
    for (const auto& [hz, s] : sums) f.exact_per_event[hz] = s.second > 0 ? s.first / s.second : 0;
    f.parameters = best_parameters(points);
    for (const auto& [hz, s] : sums) f.per_event[hz] = pipeline_output_cycles(f.parameters, hz);
    return f;
}

}  // namespace

std::vector<PipelineMeasurement> load_pipeline_calibration(const std::string& path) {
    const YAML::Node root = load_yaml_file(path);
    const YAML::Node list = root["timing"]["pipeline"]["calibration"];
    std::vector<PipelineMeasurement> points;
    if (!list) return points;
    if (!list.IsSequence()) throw std::runtime_error(path + ": timing.pipeline.calibration must be a list");
    for (std::size_t i = 0; i < list.size(); ++i)
        points.push_back(read_measurement(list[i], path + ": timing.pipeline.calibration[" + std::to_string(i) + "]"));
    return points;
}

int store_cnn_registers(AcceleratorState& st, const std::string& cnn_c) {
    const DeviceConfig& c = st.cfg;
    std::vector<std::unique_ptr<RegisterBank>> banks;
    for (uint32_t q = 0; q < c.quadrants; ++q) {
        banks.push_back(std::make_unique<RegisterBank>("q" + std::to_string(q),
                                                       c.quadrant_regs.base + q * c.quadrant_regs.quadrant_stride));
        add_quadrant_registers(*banks.back(), st.quadrant[q], c);
    }
    std::ifstream in(cnn_c);
    if (!in) throw std::runtime_error(cnn_c + ": cannot read");
    static const std::regex assign(R"(\*\(\(volatile uint32_t \*\) (0x[0-9a-fA-F]+)\) = (0x[0-9a-fA-F]+);)");
    int stored = 0;
    for (std::string line; std::getline(in, line);) {
        std::smatch m;
        if (!std::regex_search(line, m, assign)) continue;
        const uint64_t address = std::stoull(m[1].str(), nullptr, 16);
        if (address < c.quadrant_regs.base) continue;
        const uint64_t rel = address - c.quadrant_regs.base;
        const uint64_t q = rel / c.quadrant_regs.quadrant_stride;
        if (q >= c.quadrants || rel % c.quadrant_regs.quadrant_stride >= c.quadrant_regs.size) continue;
        stored += banks[q]->poke(rel % c.quadrant_regs.quadrant_stride, uint32_t(std::stoul(m[2].str(), nullptr, 16)));
    }
    return stored;
}

uint64_t inference_cycles_at(AcceleratorState& st, bool pipeline, double cnn_hz) {
    const SequencePlan plan = plan_sequence(st);
    if (plan.master < 0) throw std::runtime_error("no master quadrant: the registers start no inference");
    const RegField dis = register_fields(st.cfg).REG_CTL.PIPELINE_DIS;
    uint32_t& ctl = st.quadrant[size_t(plan.master)].ctl;
    ctl = dis.with(ctl, pipeline ? 0 : 1);
    return inference_cycles(TimingModel(inference_timing(st.cfg.timing, st, plan.master, cnn_hz)), st, plan).total();
}

PipelinePoint measure_pipeline_point(const DeviceConfig& cfg, const PipelineMeasurement& m,
                                     const std::string& vectors_dir) {
    const std::string cnn_c = (fs::path(vectors_dir) / m.vector / "cnn.c").string();
    // The same registers timed at a cost of 0 and of 1 cycle per output event.
    auto cycles_with_cost = [&](uint32_t per_event) {
        DeviceConfig c = cfg;
        c.timing.pipeline.present = true;
        c.timing.pipeline.output_fill_cycles = per_event;
        c.timing.pipeline.output_sync_ns = 0;
        AcceleratorState st(c);
        if (store_cnn_registers(st, cnn_c) == 0) throw std::runtime_error(cnn_c + ": no register writes");
        return inference_cycles_at(st, true, m.cnn_hz);
    };
    PipelinePoint p;
    p.measured = m;
    p.walk = cycles_with_cost(0);
    p.events = cycles_with_cost(1) - p.walk;
    return p;
}

PipelineFit fit_pipeline(const std::vector<PipelinePoint>& points) {
    std::vector<const PipelinePoint*> all;
    for (const PipelinePoint& p : points) all.push_back(&p);
    return fit_rows(all);
}

uint64_t predicted_cycles(const AccelTiming::Pipeline& parameters, const PipelinePoint& p) {
    return p.cycles_at(pipeline_output_cycles(parameters, p.measured.cnn_hz));
}

std::vector<PipelinePrediction> leave_one_out(const std::vector<PipelinePoint>& points) {
    std::vector<PipelinePrediction> out;
    for (const PipelinePoint& held : points) {
        std::vector<const PipelinePoint*> others;
        for (const PipelinePoint& p : points)
            if (&p != &held) others.push_back(&p);
        PipelinePrediction r;
        r.point = &held;
        r.fitted = fit_rows(others).parameters;
        r.cycles = predicted_cycles(r.fitted, held);
        r.error_pct = (double(r.cycles) - held.measured.cycles) / held.measured.cycles * 100;
        out.push_back(r);
    }
    return out;
}

}  // namespace ai8x
