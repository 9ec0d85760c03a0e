// Command-line front end of ai8xsim (subcommands run, replay, ...).
#pragma once

namespace ai8x {
// Parses argv, runs the chosen subcommand, returns the process exit code.
int cli_main(int argc, char* argv[]);
}  // namespace ai8x
