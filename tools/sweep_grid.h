// The grid of ai8xsim-sweep: axes parsed from --grid/--grid-field/--field
// arguments and the --set list of every grid point.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ai8x::sweep {

// Argument or input errors: reported with the offending text, exit code 2.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Each point is a whole simulation (a second or more): a range or grid larger
// than this is a typing mistake (0:0xffffffff:1, found by fuzz_arguments), to
// be refused before listing its points takes gigabytes.
constexpr uint64_t kMaxGridPoints = 1'000'000;

struct Field {
    std::vector<uint32_t> addresses;
    unsigned hi, lo;
};

// One grid axis: each of `values` is written to every address of `addresses`,
// either as the whole register or (field axis) into bits hi:lo of the value the
// firmware writes there, keeping its other bits.
struct Axis {
    std::string label;
    std::vector<uint32_t> addresses;
    std::optional<std::pair<unsigned, unsigned>> bits;  // hi, lo
    std::vector<uint32_t> values;
};

// A 32-bit number, hex (0x...) or decimal; nothing if `text` is anything else.
std::optional<uint32_t> parse_u32(const std::string& text);

// Every `*((volatile uint32_t *) ADDR) = VALUE;` of the generated cnn.c, last value per address.
std::map<uint32_t, uint32_t> generated_writes(const std::filesystem::path& cnn_c);

// "NAME=ADDR[+ADDR..]:HI:LO" of --field.
std::pair<std::string, Field> parse_field_def(const std::string& def);
// "ADDR[+ADDR..]=VALUES" of --grid.
Axis parse_grid(const std::string& arg);
// "ADDR[+ADDR...]:HI:LO=VALUES" or "NAME=VALUES" (NAME from --field) of --grid-field.
Axis parse_grid_field(const std::string& arg, const std::map<std::string, Field>& named);

std::string hex(uint32_t v);

// An axis value as its CSV cell: decimal for a field, 0x%08x for a whole register.
std::string axis_cell(const Axis& axis, size_t value_index);

// The --set list of one grid point (axes applied in order, later ones win on shared bits).
std::vector<std::pair<uint32_t, uint32_t>> point_overrides(const std::vector<Axis>& axes,
                                                           const std::vector<size_t>& index,
                                                           const std::map<uint32_t, uint32_t>& generated);

// Throws UsageError when the grid (the product of the axes' value counts) has
// more than kMaxGridPoints points.
void check_grid_size(const std::vector<Axis>& axes);

// Every point of the grid as value indices per axis; the last axis varies fastest.
std::vector<std::vector<size_t>> grid_points(const std::vector<Axis>& axes);

}  // namespace ai8x::sweep
