// Where built firmware is cached when no --build-dir is given. Header-only so
// that the programs that start ai8xsim runs (ai8xsim-sweep, the conformance
// runner) name the same folder without linking the firmware builder: they
// give their runs a TMPDIR of their own, so each run's last-resort default
// ($TMPDIR/ai8xsim-cache) would otherwise be a different folder.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>

namespace ai8x {

// $AI8XSIM_FIRMWARE_CACHE, else $XDG_CACHE_HOME/ai8xsim, else
// ~/.cache/ai8xsim, else $TMPDIR/ai8xsim-cache. One cache serves a whole test
// or CI run (tests, conformance and sweeps share builds); entries are keyed
// by content, so sharing is safe.
inline std::string default_firmware_cache_root() {
    if (const char* c = std::getenv("AI8XSIM_FIRMWARE_CACHE"); c && *c) return c;
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/ai8xsim";
    if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/ai8xsim";
    return (std::filesystem::temp_directory_path() / "ai8xsim-cache").string();
}

}  // namespace ai8x
