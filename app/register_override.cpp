#include "app/register_override.h"

#include "tlm/trace_number.h"

namespace ai8x {

std::optional<RegisterOverride> parse_register_override(const std::string& text) {
    const auto eq = text.find('=');
    if (eq == std::string::npos) return std::nullopt;
    const auto address = parse_number(text.substr(0, eq));
    const auto value = parse_number(text.substr(eq + 1));
    if (!address || !value || *address > 0xffffffffu || *value > 0xffffffffu) return std::nullopt;
    return RegisterOverride{*address, static_cast<uint32_t>(*value)};
}

}  // namespace ai8x
