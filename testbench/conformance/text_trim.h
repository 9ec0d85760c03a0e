#pragma once

#include <string>

namespace ai8x::conformance {

// The text between leading and trailing blanks (spaces, tabs and a Windows line end's '\r'),
// as the catalog files and INDEX.md are hand-edited on any machine.
inline std::string trim_blanks(const std::string& s) {
    const char* blanks = " \t\r";
    const auto b = s.find_first_not_of(blanks);
    if (b == std::string::npos) return "";
    return s.substr(b, s.find_last_not_of(blanks) - b + 1);
}

}  // namespace ai8x::conformance
