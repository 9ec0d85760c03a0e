// Running a host program through the shell and collecting what it says: the
// firmware builder's compilers, the RTL flow's verify-output.py.
#pragma once

#include <string>

namespace ai8x {

// `s` quoted for the shell (single quotes).
std::string shell_quote(const std::string& s);

// Runs `cmd` through the shell, appending its standard output and error to
// `output`; returns its exit status (-1 when it did not exit normally).
// Throws std::runtime_error when the shell cannot be started.
int run_host_command(const std::string& cmd, std::string& output);

}  // namespace ai8x
