// The parts of the ai8xsim._core module (python/src/module.cpp).
#pragma once

#include <pybind11/pybind11.h>

namespace ai8x::python {

// RunOptions, RunResult and run(): `ai8xsim run` in-process (app/run_session.h).
void bind_run(pybind11::module_& m);
// replay() and info(): `ai8xsim replay` and `ai8xsim info` in-process.
void bind_commands(pybind11::module_& m);
// align(): the layer-dump aligner of ai8xsim-layer-diff; SweepGrid and
// run_processes(): the grid and the process pool of ai8xsim-sweep.
void bind_tools(pybind11::module_& m);

}  // namespace ai8x::python
