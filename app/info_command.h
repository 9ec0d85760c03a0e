// `ai8xsim info`: the platform's SystemC module tree with every address window,
// memory instance and register block (app/platform_map.h), as text or JSON.
#pragma once

#include <string>

namespace ai8x {

struct InfoOptions {
    std::string config_path;  // device description; empty = bundled MAX78000
    bool json = false;        // JSON on stdout instead of the aligned text
};

// What `info` prints, in memory (the Python package's answer).
struct InfoResult {
    int exit_code = 2;    // 0, or 2 when the device description cannot be loaded
    std::string message;  // why not (the command line's "ai8xsim info: ..." line)
    std::string text;     // the map as text, or as JSON when InfoOptions::json
};

// Elaborates the platform on a simulation kernel of its own
// (app/simulation_turn.h) and describes it; never throws for bad input.
InfoResult info_in_process(const InfoOptions& opts);

// 0 on success, 2 when the device description cannot be loaded.
int info_command(const InfoOptions& opts);

}  // namespace ai8x
