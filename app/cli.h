// Command-line front end of ai8xsim (subcommands run, replay, ...).
#pragma once

#include <string>

namespace ai8x {
// Log messages (spdlog) go to stderr from `level` on ("trace" ... "off"), so
// that stdout carries only results and the firmware console. Not registered
// by name: a second call in one process (tests, the Python package) makes its own.
void setup_logging(const std::string& level);
// Parses argv, runs the chosen subcommand, returns the process exit code.
int cli_main(int argc, char* argv[]);
}  // namespace ai8x
