// ai8xsim-energy-fit CONFIG [--fit=A,B] [--loo] RUN.json...: fits a device's energy coefficients
// to its silicon measurements (CONFIG's energy.calibration) from the run JSONs
// of the measured vectors (`ai8xsim run DIR --json RUN.json`), and prints the
// fitted coefficients and every network's error, both with the fit and with
// the coefficients CONFIG holds now. docs/energy-model.md shows its output.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/energy_calibration.h"
#include "model/power/energy_model.h"
#include "tlm/device_config.h"

using namespace ai8x;

namespace {

void print_table(const char* title, const EnergyConfig& c, const std::vector<CalibrationRun>& runs) {
    std::printf("\n%s\n", title);
    std::printf("%-20s %-9s %12s %12s %8s\n", "vector", "role", "silicon uJ", "model uJ", "error");
    for (const CalibrationRun& r : runs) {
        const EnergyEstimate e = estimate_energy(c, r.inputs);
        std::printf("%-20s %-9s %12.1f %12.1f %+7.1f%%\n", r.measured.vector.c_str(), r.measured.role.c_str(),
                    r.measured.inference_uj, e.inference_uj, percent_error(e.inference_uj, r.measured.inference_uj));
        if (r.measured.weight_load_uj)
            std::printf("%-20s %-9s %12.1f %12.1f %+7.1f%%\n", (r.measured.vector + " weights").c_str(), "fit",
                        *r.measured.weight_load_uj, e.weight_load_uj,
                        percent_error(e.weight_load_uj, *r.measured.weight_load_uj));
    }
}

// The same coefficients with the model's own inference time: what `ai8xsim run` prints.
void print_own_timing(const EnergyConfig& c, const std::vector<CalibrationRun>& runs) {
    std::printf("\nwith the coefficients of the device file and the model's own inference time (as `ai8xsim run`):\n");
    std::printf("%-20s %12s %12s %12s %12s %8s\n", "vector", "silicon us", "model us", "silicon uJ", "model uJ",
                "error");
    for (const CalibrationRun& r : runs) {
        const double uj = estimate_energy(c, at_model_time(r)).inference_uj;
        std::printf("%-20s %12.1f %12.1f %12.1f %12.1f %+7.1f%%\n", r.measured.vector.c_str(), r.measured.inference_us,
                    r.model_inference_us, r.measured.inference_uj, uj, percent_error(uj, r.measured.inference_uj));
    }
}

// Leave-one-out: each network predicted by the fit on the other three, at the
// silicon time and at the model's own; the CPU's power only where a
// weight-loading row is left among the others.
void print_loo(const EnergyConfig& c, const std::vector<CalibrationRun>& runs) {
    std::printf("\nleave-one-out: each network predicted by the fit on all the others\n");
    std::printf("%-20s %10s %12s %8s %12s %8s %14s %12s\n", "vector", "silicon uJ", "at silicon t", "error",
                "at model t", "error", "cycle_pj", "access_pj");
    double worst = 0, worst_own = 0;
    for (const EnergyPrediction& p : leave_one_out_energy(c, runs)) {
        const double e = p.run->measured.inference_uj;
        const double err = percent_error(p.at_silicon_time_uj, e), own = percent_error(p.at_model_time_uj, e);
        std::printf("%-20s %10.1f %12.1f %+7.1f%% %12.1f %+7.1f%% %14.3f %12.3f\n", p.run->measured.vector.c_str(), e,
                    p.at_silicon_time_uj, err, p.at_model_time_uj, own, p.fitted.quadrant_cycle_pj,
                    p.fitted.memory_access_pj);
        if (std::fabs(err) > std::fabs(worst)) worst = err;
        if (std::fabs(own) > std::fabs(worst_own)) worst_own = own;
    }
    std::printf("worst predicted error: %+.1f %% at the silicon time, %+.1f %% at the model's own\n", worst, worst_own);
    int weight_rows = 0;
    for (const CalibrationRun& r : runs) weight_rows += r.measured.weight_load_uj.has_value();
    if (weight_rows < 2)
        std::printf("cpu.active_mw: %d weight-loading measurement(s): nothing left out to predict\n", weight_rows);
}

}  // namespace

// The SystemC library references sc_main even though this program never simulates.
extern "C" int sc_main(int, char**) { return 2; }

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: ai8xsim-energy-fit CONFIG.yaml [--fit=VECTOR,VECTOR] [--loo] RUN.json...\n");
        return 2;
    }
    try {
        const DeviceConfig cfg = load_device_config(argv[1]);
        if (!cfg.energy.present) throw std::runtime_error(std::string(argv[1]) + ": no energy section");
        // --fit=A,B: fit on these vectors instead of the file's fit rows;
        // --loo: also predict each network from the fit on the others.
        int first_run = 2;
        std::string fit_override;
        bool loo = false;
        for (; first_run < argc && std::string(argv[first_run]).rfind("--", 0) == 0; ++first_run) {
            const std::string arg = argv[first_run];
            if (arg == "--loo")
                loo = true;
            else if (arg.rfind("--fit=", 0) == 0)
                fit_override = "," + arg.substr(6) + ",";
            else
                throw std::runtime_error("unknown option " + arg);
        }
        std::vector<CalibrationRun> runs;
        for (int i = first_run; i < argc; ++i) {
            std::ifstream in(argv[i]);
            if (!in) throw std::runtime_error(std::string(argv[i]) + ": cannot read");
            nlohmann::json j;
            try {
                j = nlohmann::json::parse(in);
            } catch (const nlohmann::json::exception& e) {
                throw std::runtime_error(std::string(argv[i]) + ": not JSON: " + e.what());
            }
            try {
                runs.push_back(calibration_run(cfg.energy, j));
                if (!fit_override.empty())
                    runs.back().measured.role =
                        fit_override.find("," + runs.back().measured.vector + ",") != std::string::npos ? "fit"
                                                                                                        : "validate";
            } catch (const std::exception& e) {
                throw std::runtime_error(std::string(argv[i]) + ": " + e.what());
            }
        }
        const EnergyFit fit = fit_energy(cfg.energy, runs);
        // The conditioning of every pair of rows, the rule that picks the fit pair.
        std::printf("condition number of the fit on each pair (columns scaled to unit length):\n");
        for (std::size_t i = 0; i < runs.size(); ++i)
            for (std::size_t k = i + 1; k < runs.size(); ++k)
                std::printf("  %-20s %-20s %10.2f\n", runs[i].measured.vector.c_str(), runs[k].measured.vector.c_str(),
                            fit_condition({&runs[i], &runs[k]}));
        std::printf("fitted on the rows marked fit (condition number %.2f):\n", fit.condition);
        std::printf("  quadrant.cycle_pj: %.3f\n", fit.quadrant_cycle_pj);
        std::printf("  one memory access (data SRAM, TRAM, bias, bus write): %.3f pJ\n", fit.memory_access_pj);
        if (fit.has_cpu_fit) std::printf("  cpu.active_mw: %.2f\n", fit.cpu_active_mw);
        print_table("with the fitted coefficients:", with_fit(cfg.energy, fit), runs);
        print_table((std::string("with the coefficients of ") + argv[1] + ":").c_str(), cfg.energy, runs);
        print_own_timing(cfg.energy, runs);
        if (loo) print_loo(cfg.energy, runs);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "ai8xsim-energy-fit: %s\n", e.what());
        return 2;
    }
    return 0;
}
