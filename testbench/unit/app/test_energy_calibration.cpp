// Energy per inference against silicon (docs/energy-model.md): the MAX78002
// demo networks are run and their activity goes through the model at AN7664's
// measured inference times. The fit is redone from the same runs and must give
// the coefficients the device file holds, so the documented errors are
// measured ones; then each network is predicted by the fit on the other three
// (leave-one-out), the figure docs/silicon-anchors.md headlines.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>

#include "app/energy_calibration.h"
#include "tlm/device_config.h"
#include "testbench/unit/app/app_test_support.h"
#include "build_paths.h"

using namespace ai8x;
using namespace ai8x::test;
namespace fs = std::filesystem;

namespace {

// Runs `ai8xsim run` as a child process (several runs per test case); the
// console goes to `stdout_file`, the report is returned.
nlohmann::json run_energy(const std::string& dir, const fs::path& work, const std::string& stdout_file = "/dev/null") {
    static int serial = 0;
    const fs::path out = work / ("run" + std::to_string(serial++) + ".json");
    const std::string cmd = std::string("SC_COPYRIGHT_MESSAGE=DISABLE '") + AI8XSIM_BINARY + "' run '" + dir +
                            "' --build-dir '" + ai8x::test::firmware_cache() + "\' --json '" + out.string() + "' >'" +
                            stdout_file + "' 2>/dev/null";
    const int status = std::system(cmd.c_str());
    const int rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    INFO(cmd << " -> exit " << rc);
    REQUIRE(rc == 0);
    return read_json(out.string());
}

std::string text_of(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

}  // namespace

// The four AN7664 networks run, as calibration runs of the device file.
std::vector<CalibrationRun> an7664_runs(const DeviceConfig& cfg) {
    const fs::path work = scratch("energy-calibration");
    std::vector<CalibrationRun> runs;
    for (const EnergyMeasurement& m : cfg.energy.calibration)
        runs.push_back(calibration_run(
            cfg.energy, run_energy(std::string(AI8XSIM_SHARED_DIR) + "/vectors-max78002/" + m.vector, work)));
    fs::remove_all(work);
    return runs;
}

TEST_CASE(
    "energy: the MAX78002 coefficients are the fit to AN7664, and each network left out is predicted within "
    "25%",
    "[energy][calibration]") {
    const DeviceConfig cfg = load_device_config(AI8XSIM_SOURCE_DIR "/configs/max78002.yaml");
    REQUIRE(cfg.energy.calibrated);
    const std::vector<CalibrationRun> runs = an7664_runs(cfg);
    REQUIRE(runs.size() == 4);

    // The coefficients in the file are the fit of these runs (to the printed digits).
    const EnergyFit fit = fit_energy(cfg.energy, runs);
    CHECK(fit.quadrant_cycle_pj == Approx(cfg.energy.quadrant_cycle_pj).epsilon(1e-3));
    CHECK(fit.memory_access_pj == Approx(cfg.energy.tram_read_pj).epsilon(1e-3));
    CHECK(fit.memory_access_pj == Approx(cfg.energy.data_sram_write_pj).epsilon(1e-3));
    REQUIRE(fit.has_cpu_fit);
    CHECK(fit.cpu_active_mw == Approx(cfg.energy.cpu_active_mw).epsilon(1e-3));

    // In-sample: four networks, two parameters (the weight-loading row fixes
    // cpu.active_mw alone, so it meets its measurement by construction).
    std::printf("%-20s %-9s %10s %10s %8s\n", "vector", "role", "silicon", "model", "error");
    for (const CalibrationRun& r : runs) {
        CHECK(r.measured.role == "fit");
        const double model = estimate_energy(cfg.energy, r.inputs).inference_uj;
        const double err = percent_error(model, r.measured.inference_uj);
        std::printf("%-20s %-9s %8.1f uJ %8.1f uJ %+7.1f%%\n", r.measured.vector.c_str(), r.measured.role.c_str(),
                    r.measured.inference_uj, model, err);
        INFO(r.measured.vector << ": model " << model << " uJ, silicon " << r.measured.inference_uj << " uJ");
        CHECK(std::fabs(err) < 5.0);
    }
    // Out of sample: the worst prediction documented is kws20_v3_1, -23.5 %.
    std::printf("leave-one-out (vector, silicon, predicted at silicon time, error):\n");
    for (const EnergyPrediction& p : leave_one_out_energy(cfg.energy, runs)) {
        const double err = percent_error(p.at_silicon_time_uj, p.run->measured.inference_uj);
        std::printf("  %-20s %8.1f uJ %8.1f uJ %+7.1f%%\n", p.run->measured.vector.c_str(),
                    p.run->measured.inference_uj, p.at_silicon_time_uj, err);
        INFO(p.run->measured.vector);
        CHECK(std::fabs(err) < 25.0);
    }
}

TEST_CASE("energy: the run JSON's phases and layers add up, and the summary line shows them", "[energy][run]") {
    const fs::path work = scratch("energy-json");
    const fs::path console = work / "stdout.txt";
    const nlohmann::json j =
        run_energy(std::string(AI8XSIM_SHARED_DIR) + "/vectors-max78002/demo87-mnist", work, console.string());
    const std::string out = text_of(console);
    fs::remove_all(work);
    const nlohmann::json& e = j.at("energy");
    REQUIRE(e.is_object());
    CHECK(e.at("status") == "calibrated");
    CHECK(e.at("cnn_clock_hz").get<double>() == j.at("cnn_clock_hz").get<double>());
    // The inference phase is timed at the clock the inference ran at.
    CHECK(j.at("phases").at("inference").get<double>() ==
          Approx(double(j.at("cnn_cycles").get<uint64_t>()) / j.at("cnn_clock_hz").get<double>() * 1e6));
    const nlohmann::json& layers = e.at("layers");
    REQUIRE(layers.size() == j.at("activity").at("layers").size());
    double sum = 0;
    for (const auto& l : layers) {
        const double parts =
            l.at("compute_uj").get<double>() + l.at("memory_uj").get<double>() + l.at("quadrant_uj").get<double>();
        CHECK(l.at("total_uj").get<double>() == Approx(parts));
        CHECK(l.at("total_uj").get<double>() > 0);
        sum += parts;
    }
    const double inference = e.at("phases").at("inference_uj").get<double>();
    CHECK(inference == Approx(sum + e.at("inference_cpu_sleep_uj").get<double>()));
    CHECK(e.at("phases").at("weight_load_uj").get<double>() > 0);
    char expected[64];
    std::snprintf(expected, sizeof expected, "energy: %.1f \xC2\xB5J per inference (", inference);
    INFO(out);
    CHECK(out.find(expected) != std::string::npos);
}

TEST_CASE("energy: a MAX78000 run is reported as uncalibrated", "[energy][run]") {
    const fs::path work = scratch("energy-max78000");
    const fs::path console = work / "stdout.txt";
    const nlohmann::json j =
        run_energy(std::string(AI8XSIM_SHARED_DIR) + "/vectors/demo-mnist-extrasmall", work, console.string());
    const std::string out = text_of(console);
    fs::remove_all(work);
    CHECK(j.at("energy").at("status") == "uncalibrated");
    INFO(out);
    CHECK(out.find("\xC2\xB5J per inference [uncalibrated]") != std::string::npos);
}
