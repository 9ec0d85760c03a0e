// The CNN clock edges of one inference: edge n comes at start + n / f_CNN,
// as SystemC time rounds it. The stream controller asks for an edge on
// nearly every scan position; sc_time's constructor from seconds looks the
// time resolution up on each call, so the same arithmetic is done here with
// the scale read once (test: "CNN clock edges ...": equal to sc_time's
// conversion on every edge tried).
#pragma once

#include <cstdint>

#include <systemc>

namespace ai8x {

class CnnEdges {
public:
    CnnEdges(sc_core::sc_time start, double hz)
        : start_(start.value()), hz_(hz), units_per_second_(double(sc_core::sc_time(1.0, sc_core::SC_SEC).value())) {}

    // (start + sc_time(double(cycle) / hz, SC_SEC)).value(): sc_time rounds
    // seconds x units per second to the nearest unit.
    uint64_t value_at(uint64_t cycle) const { return start_ + uint64_t(double(cycle) / hz_ * units_per_second_ + 0.5); }
    sc_core::sc_time at(uint64_t cycle) const { return sc_core::sc_time::from_value(value_at(cycle)); }

private:
    uint64_t start_;
    double hz_;
    double units_per_second_;
};

}  // namespace ai8x
