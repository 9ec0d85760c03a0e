#pragma once
// Tests of the device-description loader's messages: load a bundled device
// file with one edit applied and return what the loader says about it.

#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <unistd.h>

#include "tlm/device_config.h"

namespace ai8x::test {

inline std::string text_of(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// `path` with the first match of `pattern` replaced by `replacement`, written
// to a temporary file and loaded; returns the loader's error message, empty
// when the edited file loads. The edit must match (the test fails otherwise).
inline std::string config_error_after_edit(const std::string& path, const std::string& pattern,
                                           const std::string& replacement) {
    const std::string text = text_of(path);
    std::smatch m;
    REQUIRE(std::regex_search(text, m, std::regex(pattern)));
    char name[] = "/tmp/ai8xsim_cfg_edit_XXXXXX";
    const int fd = mkstemp(name);
    REQUIRE(fd >= 0);
    close(fd);
    std::ofstream(name) << m.prefix().str() << replacement << m.suffix().str();
    std::string msg;
    try {
        load_device_config(name);
    } catch (const ConfigError& e) {
        msg = e.what();
    }
    std::remove(name);
    // A message about the edited file names it.
    if (!msg.empty()) CHECK(msg.find(name) != std::string::npos);
    return msg;
}

}  // namespace ai8x::test
