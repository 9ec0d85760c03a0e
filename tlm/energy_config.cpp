// The energy: section of a device file. Every coefficient must be given (a
// missing one would silently count as free energy); a device file without
// the section describes a chip with no energy estimate.
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "tlm/energy_config.h"
#include "tlm/yaml_reader.h"

namespace ai8x {

namespace {

// A non-negative real number (energies and powers are never negative).
double real(const Reader& r, const YAML::Node& parent, const std::string& path, const std::string& name) {
    const YAML::Node n = r.need(parent, path, name);
    const std::string key = path + "." + name;
    if (!n.IsScalar()) r.fail(key, "expected a number", &n);
    const std::string& text = n.Scalar();
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(v))
        r.fail(key, "expected a number, got '" + text + "'", &n);
    if (v < 0) r.fail(key, "must not be negative, got '" + text + "'", &n);
    return v;
}

EnergyMeasurement read_measurement(const Reader& r, const YAML::Node& m, const std::string& path) {
    EnergyMeasurement e;
    e.vector = r.str(m, path, "vector");
    e.role = r.str(m, path, "role");
    if (e.role != "fit" && e.role != "validate") r.fail(path + ".role", "expected fit or validate", &m);
    e.inference_uj = real(r, m, path, "inference_uj");
    e.inference_us = real(r, m, path, "inference_us");
    if (e.inference_us <= 0) r.fail(path + ".inference_us", "must be greater than zero", &m);
    if (m["weight_load_uj"]) e.weight_load_uj = real(r, m, path, "weight_load_uj");
    e.source = r.str(m, path, "source");
    return e;
}

}  // namespace

EnergyConfig read_energy_config(const Reader& r, const YAML::Node& root) {
    EnergyConfig c;
    const YAML::Node e = root["energy"];
    if (!e.IsDefined() || e.IsNull()) return c;
    const std::string p = "energy";
    c.present = true;
    c.calibrated = r.boolean(e, p, "calibrated");
    c.basis = r.str(e, p, "basis");
    c.voltage_v = real(r, e, p, "voltage_v");
    const YAML::Node ev = r.need(e, p, "event_pj");
    const std::string pe = p + ".event_pj";
    c.mac_pj = real(r, ev, pe, "mac");
    c.data_sram_read_pj = real(r, ev, pe, "data_sram_read");
    c.data_sram_write_pj = real(r, ev, pe, "data_sram_write");
    c.tram_read_pj = real(r, ev, pe, "tram_read");
    c.tram_write_pj = real(r, ev, pe, "tram_write");
    c.kernel_read_pj = real(r, ev, pe, "kernel_read");
    c.bias_read_pj = real(r, ev, pe, "bias_read");
    c.bus_write_pj = real(r, ev, pe, "bus_write");
    const YAML::Node q = r.need(e, p, "quadrant");
    c.quadrant_cycle_pj = real(r, q, p + ".quadrant", "cycle_pj");
    c.quadrant_leakage_mw = real(r, q, p + ".quadrant", "leakage_mw");
    const YAML::Node cpu = r.need(e, p, "cpu");
    c.cpu_active_mw = real(r, cpu, p + ".cpu", "active_mw");
    c.cpu_sleep_mw = real(r, cpu, p + ".cpu", "sleep_mw");
    if (const YAML::Node cal = e["calibration"]; cal.IsDefined() && !cal.IsNull()) {
        if (!cal.IsSequence()) r.fail(p + ".calibration", "expected a list", &cal);
        for (std::size_t i = 0; i < cal.size(); ++i)
            c.calibration.push_back(read_measurement(r, cal[i], p + ".calibration[" + std::to_string(i) + "]"));
    }
    if (c.calibrated && c.calibration.empty())
        r.fail(p + ".calibrated", "true, but no calibration measurements are listed", &e);
    return c;
}

}  // namespace ai8x
