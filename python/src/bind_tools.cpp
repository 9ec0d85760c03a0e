// What the package reuses of the tools: the layer-dump aligner of
// ai8xsim-layer-diff (tools/layer_fold.h) for compare(), and the grid and
// the process pool of ai8xsim-sweep (tools/sweep_grid.h, tools/process_pool.h)
// for sweep().
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "python/src/bindings.h"
#include "testbench/reference/generator_log.h"
#include "tools/layer_fold.h"
#include "tools/process_pool.h"
#include "tools/sweep_grid.h"

namespace py = pybind11;

namespace ai8x::python {

namespace {

using Int3d = py::array_t<int64_t, py::array::c_style | py::array::forcecast>;

// The chip's layer `got` (C, H, W as dumped) lined up with the user's tensor
// `want` (the network's C, H, W): (shape_ok, layout, aligned array or None).
py::tuple align(const Int3d& got, const Int3d& want) {
    if (got.ndim() != 3 || want.ndim() != 3) throw py::value_error("align: both arrays must have 3 dimensions");
    LayerOutput dump;
    dump.channels = got.shape(0), dump.rows = got.shape(1), dump.cols = got.shape(2);
    dump.values.assign(got.data(), got.data() + got.size());
    reference::Tensor tensor(want.shape(0), want.shape(1), want.shape(2));
    tensor.values.assign(want.data(), want.data() + want.size());
    const AlignedDump a = align_dump(dump, tensor);
    if (!a.shape_ok) return py::make_tuple(false, a.layout, py::none());
    Int3d values({want.shape(0), want.shape(1), want.shape(2)});
    std::copy(a.values.values.begin(), a.values.values.end(), values.mutable_data());
    return py::make_tuple(true, a.layout, values);
}

// The output tensor of every layer the generator's log prints (what its
// PyTorch model computed): [(layer, array of shape (C, H, W))].
py::list generator_log_layers(const std::string& text, const std::string& source) {
    std::istringstream in(text);
    const reference::GeneratorLog log = reference::parse_generator_log(in, source);
    py::list layers;
    for (const reference::LogLayerCase& c : log.layers) {
        const reference::Tensor& t = c.expected;
        Int3d values({t.channels, t.height, t.width});
        std::copy(t.values.begin(), t.values.end(), values.mutable_data());
        layers.append(py::make_tuple(c.layer, values));
    }
    return layers;
}

// The register axes of a sweep, parsed as ai8xsim-sweep parses --grid and
// --grid-field (with --field names), and the --set list of a point.
struct SweepGrid {
    std::vector<sweep::Axis> axes;
    std::map<uint32_t, uint32_t> generated;  // what cnn.c writes (field axes keep its other bits)
};

// `axes`: (is_field, argument) in the user's order.
SweepGrid make_grid(const std::string& cnn_c, const std::vector<std::pair<bool, std::string>>& axes,
                    const std::vector<std::string>& field_defs) {
    std::map<std::string, sweep::Field> named;
    for (const std::string& def : field_defs) named.insert(sweep::parse_field_def(def));
    SweepGrid grid;
    bool fields = false;
    for (const auto& [is_field, arg] : axes) fields = fields || is_field;
    if (fields) grid.generated = sweep::generated_writes(cnn_c);
    for (const auto& [is_field, arg] : axes) {
        grid.axes.push_back(is_field ? sweep::parse_grid_field(arg, named) : sweep::parse_grid(arg));
        if (!is_field) continue;
        for (uint32_t addr : grid.axes.back().addresses)
            if (!grid.generated.count(addr))
                throw sweep::UsageError("field axis '" + arg + "': " + cnn_c + " never writes " + sweep::hex(addr) +
                                        ", so there are no generated bits to keep");
    }
    sweep::check_grid_size(grid.axes);
    return grid;
}

// Runs `jobs` (argv, log path, TMPDIR, folders to clean after a kill) with
// the sweep's process pool, `parallel` at a time; `progress(done, total)`
// after each. The outcomes in job order.
std::vector<tools::JobOutcome> run_processes(const std::vector<tools::Job>& jobs, unsigned parallel,
                                             double seconds_per_job,
                                             const std::function<void(size_t, size_t)>& progress) {
    std::vector<tools::JobOutcome> outcomes(jobs.size());
    {
        py::gil_scoped_release release;
        tools::PoolLimits limits;
        limits.parallel = std::max(1u, parallel);
        limits.seconds_per_job = seconds_per_job;
        size_t done = 0;
        tools::run_jobs(
            jobs.size(), [&](size_t k) { return jobs[k]; }, limits,
            [&](size_t k, const tools::JobOutcome& o) {
                outcomes[k] = o;
                if (!progress) return;
                py::gil_scoped_acquire acquire;
                try {
                    progress(++done, jobs.size());
                } catch (py::error_already_set& e) {  // a broken callback must not stop the runs
                    e.discard_as_unraisable("ai8xsim sweep progress");
                }
            });
    }
    return outcomes;
}

void bind_sweep(py::module_& m) {
    py::register_exception<sweep::UsageError>(m, "GridError", PyExc_ValueError);
    py::class_<SweepGrid>(m, "SweepGrid", "The register axes of a sweep (tools/sweep_grid.h)")
        .def(py::init(&make_grid), py::arg("cnn_c"), py::arg("axes"), py::arg("field_defs"))
        .def_property_readonly("labels",
                               [](const SweepGrid& g) {
                                   std::vector<std::string> labels;
                                   for (const auto& a : g.axes) labels.push_back(a.label);
                                   return labels;
                               })
        .def("values", [](const SweepGrid& g, size_t axis) { return g.axes.at(axis).values; })
        .def("overrides", [](const SweepGrid& g, const std::vector<size_t>& index) {
            return sweep::point_overrides(g.axes, index, g.generated);
        });
    py::class_<tools::Job>(m, "Job").def(
        py::init(
            [](std::vector<std::string> argv, std::string log, std::string tmp, std::vector<std::string> leftovers) {
                return tools::Job{std::move(argv), std::move(log), std::move(tmp), std::move(leftovers)};
            }),
        py::arg("argv"), py::arg("log_path"), py::arg("tmp_dir"), py::arg("leftover_dirs"));
    py::class_<tools::JobOutcome>(m, "JobOutcome")
        .def_readonly("exit_code", &tools::JobOutcome::exit_code)
        .def_readonly("timed_out", &tools::JobOutcome::timed_out)
        .def_readonly("signalled", &tools::JobOutcome::signalled)
        .def_readonly("spawn_failed", &tools::JobOutcome::spawn_failed)
        .def_readonly("error", &tools::JobOutcome::error)
        .def_readonly("wall_seconds", &tools::JobOutcome::wall_seconds);
    m.def("run_processes", &run_processes, py::arg("jobs"), py::arg("parallel"), py::arg("seconds_per_job") = 0.0,
          py::arg("progress") = nullptr);
}

}  // namespace

void bind_tools(py::module_& m) {
    m.def("align", &align, py::arg("got"), py::arg("want"),
          "Lines the chip's layer (C, H, W as dumped) up with a tensor of the network's shape (tools/layer_fold.h)");
    m.def("generator_log_layers", &generator_log_layers, py::arg("text"), py::arg("source"),
          "Every layer output the generator's log (log.txt) prints: [(layer, array (C, H, W))]");
    bind_sweep(m);
}

}  // namespace ai8x::python
