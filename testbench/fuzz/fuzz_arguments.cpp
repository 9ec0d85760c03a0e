// libFuzzer harness: command-line arguments typed by hand that carry numbers:
// `ai8xsim run --set ADDR=VALUE` and the axes of `ai8xsim-sweep`
// (--grid ADDR=V1,V2|START:END:STEP, --grid-field ADDR:HI:LO=... or NAME=...).
// Every input line is given to each parser: the shipped ones
// (app/register_override.*, tools/sweep_grid.*).
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "app/register_override.h"
#include "testbench/fuzz/fuzz_support.h"
#include "tools/sweep_grid.h"

using namespace ai8x::sweep;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const std::map<std::string, Field> named = {{"delta", Field{{0x50100130u, 0x50500130u}, 11, 4}}};
    std::istringstream lines(std::string(reinterpret_cast<const char*>(data), size));
    std::vector<Axis> axes;
    for (std::string line; std::getline(lines, line);) {
        if (const auto o = ai8x::parse_register_override(line); o && o->address > 0xffffffffu)
            ai8x::fuzz::fail("--set accepted an address above 32 bits: '" + line + "'");
        try {
            axes.push_back(parse_grid(line));
        } catch (const UsageError&) {
        }
        try {
            axes.push_back(parse_grid_field(line, named));
        } catch (const UsageError&) {
        }
    }
    try {
        check_grid_size(axes);
    } catch (const UsageError&) {
        return 0;
    }
    // The first and the last point of the grid, as the sweep builds them.
    std::vector<size_t> first(axes.size(), 0), last;
    for (const Axis& a : axes) last.push_back(a.values.size() - 1);
    (void)point_overrides(axes, first, {});
    (void)point_overrides(axes, last, {});
    return 0;
}
