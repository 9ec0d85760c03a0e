#pragma once
// Warnings a program can trigger on every access (a loop storing to read-only
// memory, to a FIFO it left disabled, to a register that does not exist) would
// bury the run's log under one identical line per store. The rule, as for the
// memory checker's findings (issue #30): the first occurrence of each kind at
// each place is a warning, in full; the repeats go to the debug level
// (-v debug) and are counted; when the owner goes (its board is dismantled at
// the end of the run) one line per kind says how many were not printed.
// Nothing is printed twice at warning level.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ai8x {

class RepeatedWarnings {
public:
    // `owner` starts the summary lines (a module's name).
    explicit RepeatedWarnings(std::string owner) : owner_(std::move(owner)) {}
    ~RepeatedWarnings();
    RepeatedWarnings(const RepeatedWarnings&) = delete;
    RepeatedWarnings& operator=(const RepeatedWarnings&) = delete;

    // Logs `message` as a warning the first time `kind` is reported, at debug
    // level after that. `kind` names what happened and where, without the
    // details that change from one occurrence to the next (the data word, the
    // time): "FIFO 0 written while disabled".
    void warn(const std::string& kind, const std::string& message);
    // How often `kind` was reported (0 if never).
    uint64_t count(const std::string& kind) const;

private:
    std::string owner_;
    std::map<std::string, uint64_t> counts_;
    std::vector<std::string> order_;  // kinds in order of their first report
};

}  // namespace ai8x
