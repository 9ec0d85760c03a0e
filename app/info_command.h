// `ai8xsim info`: the platform's SystemC module tree with every address window,
// memory instance and register block (app/platform_map.h), as text or JSON.
#pragma once

#include <string>

namespace ai8x {

struct InfoOptions {
    std::string config_path;  // device description; empty = bundled MAX78000
    bool json = false;        // JSON on stdout instead of the aligned text
};

// 0 on success, 2 when the device description cannot be loaded.
int info_command(const InfoOptions& opts);

}  // namespace ai8x
