#include "app/energy_calibration.h"

#include <filesystem>
#include <limits>
#include <stdexcept>

#include <Eigen/Dense>

#include "app/energy_report.h"

namespace ai8x {

namespace {

// The inference energy with only the coefficients `set` switches on, each 1:
// the model is linear, so this is the column of the design matrix.
double unit_response(const EnergyInputs& in, void (*set)(EnergyConfig&)) {
    EnergyConfig c;
    set(c);
    return estimate_energy(c, in).inference_uj;
}

void quadrant_only(EnergyConfig& c) { c.quadrant_cycle_pj = 1; }
void memory_only(EnergyConfig& c) {
    c.data_sram_read_pj = c.data_sram_write_pj = c.tram_read_pj = c.tram_write_pj = c.bias_read_pj = 1;
}

// One row of the fit: the two columns' responses and the measured energy, all
// divided by the measured energy so that every network's relative error counts the same.
void design_row(const CalibrationRun& r, double& quadrant, double& memory) {
    const double e = r.measured.inference_uj;
    quadrant = unit_response(r.inputs, quadrant_only) / e;
    memory = unit_response(r.inputs, memory_only) / e;
}

}  // namespace

double fit_condition(const std::vector<const CalibrationRun*>& rows) {
    Eigen::MatrixXd a(rows.size(), 2);
    for (std::size_t i = 0; i < rows.size(); ++i) design_row(*rows[i], a(Eigen::Index(i), 0), a(Eigen::Index(i), 1));
    // Unit-length columns: the pJ-per-cycle and pJ-per-access units must not set the number.
    for (Eigen::Index c = 0; c < 2; ++c) {
        const double n = a.col(c).norm();
        if (n <= 0) return std::numeric_limits<double>::infinity();
        a.col(c) /= n;
    }
    const Eigen::VectorXd sv = Eigen::JacobiSVD<Eigen::MatrixXd>(a).singularValues();
    return sv(sv.size() - 1) > 0 ? sv(0) / sv(sv.size() - 1) : std::numeric_limits<double>::infinity();
}

CalibrationRun calibration_run(const EnergyConfig& config, const nlohmann::json& run) {
    const std::string vector = std::filesystem::path(run.value("vector", std::string())).filename().string();
    const EnergyMeasurement* found = nullptr;
    for (const EnergyMeasurement& m : config.calibration)
        if (m.vector == vector) found = &m;
    if (!found) throw std::runtime_error("run of '" + vector + "': not among the device's energy.calibration vectors");
    if (!run.contains("activity") || run["activity"].is_null())
        throw std::runtime_error("run of '" + vector + "': no activity (no inference ran?)");
    const double clock = run.value("cnn_clock_hz", 0.0);
    if (clock <= 0) throw std::runtime_error("run of '" + vector + "': no cnn_clock_hz");
    CalibrationRun c;
    c.measured = *found;
    c.inputs = energy_inputs(activity_from_json(run["activity"]), phases_from_json(run.at("phases")), clock);
    if (c.inputs.inference_us <= 0) throw std::runtime_error("run of '" + vector + "': no inference time");
    c.model_inference_us = c.inputs.inference_us;
    c.inputs.time_scale = found->inference_us / c.inputs.inference_us;
    c.inputs.inference_us = found->inference_us;
    return c;
}

EnergyFit fit_energy(const EnergyConfig& base, const std::vector<CalibrationRun>& runs) {
    EnergyConfig fixed = base;  // everything but the two fitted coefficients
    fixed.quadrant_cycle_pj = 0;
    fixed.data_sram_read_pj = fixed.data_sram_write_pj = fixed.tram_read_pj = fixed.tram_write_pj = fixed.bias_read_pj =
        0;
    std::vector<const CalibrationRun*> fit_rows;
    for (const CalibrationRun& r : runs)
        if (r.measured.role == "fit") fit_rows.push_back(&r);
    if (fit_rows.size() < 2) throw std::runtime_error("energy fit: needs at least two runs marked fit");
    // Rows divided by the measured energy: every network's relative error counts the same.
    Eigen::MatrixXd a(fit_rows.size(), 2);
    Eigen::VectorXd b(fit_rows.size());
    for (std::size_t i = 0; i < fit_rows.size(); ++i) {
        const CalibrationRun& r = *fit_rows[i];
        const double e = r.measured.inference_uj;
        design_row(r, a(Eigen::Index(i), 0), a(Eigen::Index(i), 1));
        b(Eigen::Index(i)) = (e - estimate_energy(fixed, r.inputs).inference_uj) / e;
    }
    const Eigen::VectorXd x = a.colPivHouseholderQr().solve(b);
    EnergyFit f;
    f.quadrant_cycle_pj = x(0);
    f.memory_access_pj = x(1);
    f.condition = fit_condition(fit_rows);
    // CPU active power: weight-loading energy less the memory writes, over the loading time.
    double tt = 0, te = 0;
    for (const CalibrationRun& r : runs) {
        if (!r.measured.weight_load_uj || r.inputs.weight_load_us <= 0) continue;
        const double writes_uj = double(r.inputs.weight_bus_writes) * f.memory_access_pj * 1e-6;
        tt += r.inputs.weight_load_us * r.inputs.weight_load_us;
        te += r.inputs.weight_load_us * (*r.measured.weight_load_uj - writes_uj) * 1e3;  // µJ/µs = W -> mW
    }
    if (tt > 0) {
        f.cpu_active_mw = te / tt;
        f.has_cpu_fit = true;
    } else {
        f.cpu_active_mw = base.cpu_active_mw;
    }
    return f;
}

EnergyInputs at_model_time(const CalibrationRun& run) {
    EnergyInputs own = run.inputs;
    own.time_scale = 1;
    own.inference_us = run.model_inference_us;
    return own;
}

std::vector<EnergyPrediction> leave_one_out_energy(const EnergyConfig& base, const std::vector<CalibrationRun>& runs) {
    std::vector<EnergyPrediction> out;
    for (std::size_t held = 0; held < runs.size(); ++held) {
        std::vector<CalibrationRun> others;
        for (std::size_t i = 0; i < runs.size(); ++i)
            if (i != held) others.push_back(runs[i]);
        for (CalibrationRun& r : others) r.measured.role = "fit";
        EnergyPrediction p;
        p.run = &runs[held];
        p.fitted = fit_energy(base, others);
        const EnergyConfig c = with_fit(base, p.fitted);
        p.at_silicon_time_uj = estimate_energy(c, runs[held].inputs).inference_uj;
        p.at_model_time_uj = estimate_energy(c, at_model_time(runs[held])).inference_uj;
        out.push_back(p);
    }
    return out;
}

EnergyConfig with_fit(EnergyConfig c, const EnergyFit& f) {
    c.quadrant_cycle_pj = f.quadrant_cycle_pj;
    c.data_sram_read_pj = c.data_sram_write_pj = c.tram_read_pj = c.tram_write_pj = c.bias_read_pj = f.memory_access_pj;
    c.bus_write_pj = f.memory_access_pj;  // a CPU write into a memory costs what an access of the inference does
    c.cpu_active_mw = f.cpu_active_mw;
    return c;
}

}  // namespace ai8x
