// CnnEdges (model/stream/cnn_edges.h) converts CNN clock edges to SystemC
// time as sc_time(double(n) / f, SC_SEC) does, without its per-call look-ups:
// every edge tried must land on the same picosecond.
#include <catch2/catch.hpp>

#include <systemc>

#include "model/stream/cnn_edges.h"

using namespace ai8x;

TEST_CASE("CNN clock edges: the same SystemC time as sc_time's conversion from seconds", "[stream][time]") {
    const sc_core::sc_time start = sc_core::sc_time(2000103.53, sc_core::SC_US);  // an inference start seen in a run
    // The clocks the devices select (MAX78000 50 MHz and its dividers, MAX78002
    // PLL 200 MHz and PLL/4, ISO 7.5 MHz) and awkward ones.
    for (double hz : {50e6, 25e6, 100e6, 200e6, 7.5e6, 60e6, 1e8 / 3, 8.333e6, 150e6}) {
        const CnnEdges edges(start, hz);
        uint64_t differ = 0, tried = 0;
        for (uint64_t cycle = 0; cycle < 4000000; cycle += cycle < 200000 ? 1 : 13) {
            const sc_core::sc_time expected = start + sc_core::sc_time(double(cycle) / hz, sc_core::SC_SEC);
            ++tried;
            if (edges.at(cycle) != expected) ++differ;
        }
        INFO(hz << " Hz, " << tried << " edges");
        CHECK(differ == 0);
    }
}
