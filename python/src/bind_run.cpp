// `ai8xsim run` in the Python process: the options, the call (the GIL
// released while it builds and simulates) and what it found.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "app/register_override.h"
#include "app/run_session.h"
#include "python/src/bindings.h"

namespace py = pybind11;

namespace ai8x::python {

namespace {

// A layer's output as a (channels, rows, columns) array of its own.
py::array_t<int64_t> layer_array(const LayerOutput& l) {
    const size_t count = size_t{l.channels} * l.rows * l.cols;
    if (l.values.size() != count)
        throw std::logic_error("layer " + std::to_string(l.layer) + ": " + std::to_string(l.values.size()) +
                               " values for a shape of " + std::to_string(count));
    py::array_t<int64_t> a({size_t{l.channels}, size_t{l.rows}, size_t{l.cols}});
    std::copy(l.values.begin(), l.values.end(), a.mutable_data());
    return a;
}

py::list layer_arrays(const RunResult& r) {
    py::list layers;
    for (const LayerOutput& l : r.layer_outputs) layers.append(py::make_tuple(l.layer, layer_array(l)));
    return layers;
}

// The run JSON as text, as `--json FILE` writes it (invalid UTF-8 of the
// firmware's console replaced).
std::string json_text(const RunResult& r) {
    return r.json().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::shared_ptr<RunResult> run(const RunOptions& options, bool console_to_stdout) {
    RunSinks sinks;
    if (console_to_stdout) sinks.out = stdout;
    py::gil_scoped_release release;
    return std::make_shared<RunResult>(run_in_process(options, sinks));
}

std::vector<std::pair<uint64_t, uint32_t>> overrides_of(const RunOptions& o) {
    std::vector<std::pair<uint64_t, uint32_t>> pairs;
    for (const RegisterOverride& r : o.overrides) pairs.emplace_back(r.address, r.value);
    return pairs;
}

void set_overrides(RunOptions& o, const std::vector<std::pair<uint64_t, uint32_t>>& pairs) {
    o.overrides.clear();
    for (const auto& [address, value] : pairs) o.overrides.push_back(RegisterOverride{address, value});
}

void bind_options(py::module_& m) {
    py::class_<RunOptions>(m, "RunOptions", "The options of `ai8xsim run` (app/run_options.h)")
        .def(py::init<>())
        .def_readwrite("vector_dir", &RunOptions::vector_dir)
        .def_readwrite("build_dir", &RunOptions::build_dir)
        .def_readwrite("config_path", &RunOptions::config_path)
        .def_readwrite("json_out", &RunOptions::json_out)
        .def_readwrite("trace_out", &RunOptions::trace_out)
        .def_readwrite("dump_layers_dir", &RunOptions::dump_layers_dir)
        .def_readwrite("capture_layers", &RunOptions::capture_layers)
        .def_readwrite("vcd_out", &RunOptions::vcd_out)
        .def_readwrite("timeline_out", &RunOptions::timeline_out)
        .def_readwrite("timeout_ms", &RunOptions::timeout_ms)
        .def_property("overrides", &overrides_of, &set_overrides)
        .def_readwrite("quiet_console", &RunOptions::quiet_console)
        .def_readwrite("check_memory", &RunOptions::check_memory)
        .def_readwrite("fast_forward_polls", &RunOptions::fast_forward_polls)
        .def_readwrite("fifo_run_ahead", &RunOptions::fifo_run_ahead)
        .def_readwrite("threads", &RunOptions::threads)
        .def_readwrite("gdb_port", &RunOptions::gdb_port);
    // `--set ADDR=VALUE` as the command line parses it; None if malformed.
    m.def("parse_override", [](const std::string& text) -> std::optional<std::pair<uint64_t, uint32_t>> {
        const auto o = parse_register_override(text);
        if (!o) return std::nullopt;
        return std::make_pair(o->address, o->value);
    });
}

}  // namespace

void bind_run(py::module_& m) {
    bind_options(m);
    py::class_<RunResult, std::shared_ptr<RunResult>>(m, "RunResult", "What one run found (app/run_result.h)")
        .def_readonly("exit_code", &RunResult::exit_code)
        .def_readonly("messages", &RunResult::messages)
        .def_readonly("folder_kind", &RunResult::folder_kind)
        .def_property_readonly("passed", &RunResult::passed)
        .def_property_readonly("started", &RunResult::started)
        .def_property_readonly("verdict", [](const RunResult& r) { return r.report.result; })
        .def_property_readonly("kat", [](const RunResult& r) { return r.report.kat; })
        .def_property_readonly("cnn_cycles", [](const RunResult& r) { return r.report.cnn_cycles; })
        .def_property_readonly("console", [](const RunResult& r) { return r.report.console; })
        .def_property_readonly("error", [](const RunResult& r) { return r.report.error; })
        .def_property_readonly("wall_seconds", [](const RunResult& r) { return r.report.wall_seconds; })
        .def("json_text", &json_text, "The run JSON (docs/reports.md) as text")
        .def("layer_arrays", &layer_arrays, "Every captured layer as (layer, int64 array of shape (C, H, W))");
    m.def("run", &run, py::arg("options"), py::arg("console_to_stdout") = false,
          "Runs the firmware folder of OPTIONS in this process (the GIL released meanwhile)");
}

}  // namespace ai8x::python
