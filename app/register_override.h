// The `--set ADDR=VALUE` argument of `ai8xsim run`: typed by hand, so parsed on
// its own (cli.cpp) and fuzzed (testbench/fuzz).
#pragma once

#include <optional>
#include <string>

#include "app/run_options.h"

namespace ai8x {

// "0x50100000=0x00000808" -> override; nothing if either side is not a 32-bit number.
std::optional<RegisterOverride> parse_register_override(const std::string& text);

}  // namespace ai8x
