// `ai8xsim replay` and `ai8xsim info` in the Python process, their answers as
// Python values (the GIL released while they elaborate and simulate).
#include <pybind11/stl.h>

#include "app/info_command.h"
#include "app/replay_command.h"
#include "python/src/bindings.h"

namespace py = pybind11;

namespace ai8x::python {

namespace {

py::dict failure_dict(const TraceFailure& f) {
    py::dict d;
    d["line"] = f.line;
    d["command"] = f.command;
    d["address"] = f.address;
    d["expected"] = f.expected;
    d["actual"] = f.actual;
    d["mask"] = f.mask;
    d["message"] = f.message;
    return d;
}

py::dict replay(const std::string& trace, const std::string& config) {
    ReplayResult r;
    {
        py::gil_scoped_release release;
        r = replay_in_process(ReplayOptions{trace, config});
    }
    py::list failures;
    for (const TraceFailure& f : r.trace.failures) failures.append(failure_dict(f));
    py::dict d;
    d["exit_code"] = r.exit_code;
    d["messages"] = r.messages;
    d["failures"] = failures;
    d["commands"] = r.trace.commands_executed;
    d["finished"] = r.trace.finished;
    d["sim_time_us"] = r.sim_time_us;
    return d;
}

py::tuple info(const std::string& config, bool json) {
    InfoResult r;
    {
        py::gil_scoped_release release;
        r = info_in_process(InfoOptions{config, json});
    }
    return py::make_tuple(r.exit_code, r.message, r.text);
}

}  // namespace

void bind_commands(py::module_& m) {
    m.def("replay", &replay, py::arg("trace"), py::arg("config") = "",
          "Replays a bus trace (docs/trace-format.md): exit_code, messages, failures, commands, finished, "
          "sim_time_us");
    m.def("info", &info, py::arg("config") = "", py::arg("json") = true,
          "The platform map of a device description: (exit_code, message, text)");
}

}  // namespace ai8x::python
