// ai8xsim._core: the simulator in the Python process (python/ai8xsim wraps it
// into the package's API; docs/python.md). Each piece is bound in a file of
// its own: runs (bind_run.cpp), replay and info (bind_commands.cpp), the
// layer-dump aligner and the sweep's grid and process pool (bind_tools.cpp).
#include <cstdlib>
#include <filesystem>

#include <pybind11/pybind11.h>

#include "app/cli.h"
#include "firmware/host/firmware_cache_root.h"
#include "python/src/bindings.h"
#include "tlm/device_config.h"
#include "build_paths.h"

// The SystemC library references sc_main; nothing calls it in this process
// (runs are function calls: app/run_session.h). Visible, so that the library
// loaded with this module resolves its reference here.
extern "C" __attribute__((visibility("default"))) int sc_main(int, char**) { return 2; }

PYBIND11_MODULE(_core, m) {
    m.doc() = "ai8xsim simulator core (use the ai8xsim package)";
    // As the command line: no SystemC banner on stdout (a user's explicit
    // setting wins), log messages on stderr from warnings on.
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);
    ai8x::setup_logging("warn");
    m.def("set_log_level", &ai8x::setup_logging, pybind11::arg("level"),
          "Log messages (stderr) from LEVEL on: trace, debug, info, warn, error, critical, off");
    // The command line of this build tree: what sweeps run when the package
    // has no copy of its own (an installed package has, python/ai8xsim/_sweep.py).
    m.attr("BUILD_TREE_CLI") = AI8XSIM_BINARY;
    // The bundled device descriptions (ai8xsim.info("max78002")).
    m.attr("CONFIG_DIR") = std::filesystem::path(ai8x::default_device_config_path()).parent_path().string();
    m.def("default_firmware_cache", &ai8x::default_firmware_cache_root,
          "The firmware build cache `ai8xsim run` uses without --build-dir");
    ai8x::python::bind_run(m);
    ai8x::python::bind_commands(m);
    ai8x::python::bind_tools(m);
}
