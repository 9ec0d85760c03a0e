// Number syntax shared by trace files and the command line: decimal ("4096")
// or hexadecimal with a 0x prefix ("0x1000"), unsigned, at most 64 bits.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ai8x {

// Returns nothing if `text` is not a complete number or does not fit in 64 bits.
std::optional<uint64_t> parse_number(std::string_view text);

// "10us", "2ms", "500ns", "1s" -> picoseconds. The unit is required so that a
// trace never depends on a default time unit.
std::optional<uint64_t> parse_duration_ps(std::string_view text);

// Picoseconds back to the largest unit that represents them exactly ("3ms").
std::string format_duration_ps(uint64_t ps);

}  // namespace ai8x
