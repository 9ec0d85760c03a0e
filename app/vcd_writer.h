// A value change dump (IEEE 1364 §18, the VCD that GTKWave and other wave
// viewers open) built from changes given in any order. SystemC's sc_trace
// writes VCD too, but it samples sc_signals as the simulation updates them;
// the accelerator model knows a layer's cycles before SystemC time reaches
// them (and the FIFO pops ahead of time), so the changes are collected and
// sorted here instead, which keeps every edge on its exact CNN clock time.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ai8x {

class VcdWriter {
public:
    // `timescale`: what one time unit is, e.g. "1 ps" (1, 10 or 100 of s..fs).
    explicit VcdWriter(std::string timescale) : timescale_(std::move(timescale)) {}

    // Declares signal `name` inside `scope` ("cnn.q0": module q0 in module
    // cnn). Width 1 is a wire; a wider one a vector, widened at writing time
    // to hold its largest value. `initial`: value at time 0 (nothing: x).
    int add_signal(const std::string& scope, const std::string& name, unsigned width,
                   std::optional<uint64_t> initial = std::nullopt);
    // Signal `signal` takes `value` (nothing: x) at `time`. Of several changes
    // of one signal at one time, the last one given wins.
    void change(uint64_t time, int signal, std::optional<uint64_t> value);
    void add_comment(const std::string& text) { comments_.push_back(text); }

    // Writes the file through a temporary file and a rename. Throws
    // std::runtime_error naming the path.
    void write(const std::string& path) const;

    // Printable identifier code of the n-th signal ("!", "\"", ..., "!!", ...).
    static std::string identifier(std::size_t n);

private:
    struct Signal {
        std::string scope, name;
        unsigned width;
        std::optional<uint64_t> initial;
    };
    struct Change {
        uint64_t time;
        int signal;
        std::optional<uint64_t> value;
    };
    void write_definitions(std::ostream& out, const std::vector<unsigned>& widths) const;

    std::string timescale_;
    std::vector<std::string> comments_;
    std::vector<Signal> signals_;
    std::vector<Change> changes_;
};

}  // namespace ai8x
