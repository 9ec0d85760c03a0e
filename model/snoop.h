// The MAX78002's two snoop units (REG_SNP1_*, REG_SNP2_*): conditional
// execution. A unit watches the data memory words one layer writes; a write
// whose address and value match counts as a hit, updates the unit's
// accumulators and, at the end of the layer, may decide that the layer's link
// (LREG_NXTLYR) is taken or that the inference stops there.
//
// The generator writes the 24 registers as its network file gives them and
// says nothing about their fields (izer/backend/max7800x.py, "Configure
// conditional execution"). What the model does is what the vendor's 22 snoop
// tests (tests/test-snoop*.yaml with their data sets) pin down; each test's
// last eight values are the accumulators it expects afterwards:
//
//  * address: 0x200000 | instance << 15 | word, the global write pointer
//    offset by the data memory's word offset from the accelerator base
//    (C_SRAM_BASE / 4); A1 alone (A2 0) or the range A1..A2;
//  * value compared: the written word (C1[31:28] = 8) or its top byte, bits
//    31:24 (C1[31:28] = 6: the range tests expect hits and a maximum of bytes);
//    D1 alone (D2 0) or the range D1..D2, unsigned;
//  * C1 bit 0 enables the unit, bit 1 stops the inference after a triggering
//    layer, bit 2 takes the layer's link only when it triggers, bit 3 adds
//    each hit's value to ACC, bit 4 counts hits in HIT, bit 5 keeps the
//    largest value in MAX and its address in AM;
//  * C1[23:20] non-zero: the unit triggers when the layer's hit count lies
//    outside X1..X2 (xval: 3 hits in 2..5 run on, noxval: 3 hits outside 4..5
//    stop); otherwise it triggers on any hit;
//  * C2[6:0]: the layer whose writes the unit watches (0, or 1 in skipl1).
// C1[15:12], [19:16] and [27:24] (2 or 5 in the tests: single value or range,
// the same information as A2/D2 being 0) and C2's upper bits are stored only.
// While a unit with bit 2 is enabled, a layer's link is taken only when such a
// unit triggers in that layer.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/accel_state.h"

namespace ai8x {

struct SnoopDecision {
    bool conditional_links = false;  // an enabled unit decides on links (C1 bit 2)
    bool take_link = false;          // a link-deciding unit triggered in this layer
    bool stop = false;               // a stopping unit (C1 bit 1) triggered in this layer
};

class SnoopUnits {
public:
    // The units of the master quadrant's registers (none when the device
    // description has no snoop registers).
    SnoopUnits(AcceleratorState& state, int master);

    bool any_enabled() const;
    // Before `layer` runs: forget which watched words were written, so that
    // after it the written flags say which words this layer wrote.
    void before(int layer);
    // After the layer given to before() ran: counts hits, updates the
    // accumulators, restores the written flags and decides.
    SnoopDecision after();

private:
    struct Unit {
        uint32_t *a1, *a2, *d1, *d2, *x1, *x2, *c1, *c2, *acc, *hit, *max, *am;  // the unit's registers
        std::vector<uint8_t> saved_flags{};  // of the watched words, while its layer runs
        bool watching = false;
    };
    struct Word {
        uint32_t instance, index;
    };
    bool enabled(const Unit& u) const;
    bool watches(const Unit& u, int layer) const;
    uint32_t last_address(const Unit& u) const;
    bool locate(uint32_t address, Word& w) const;
    bool matches(const Unit& u, uint32_t word, uint32_t& value) const;
    void record_hit(Unit& u, uint32_t address, uint32_t value) const;

    AcceleratorState& state_;
    std::vector<Unit> units_;
    uint32_t address_offset_ = 0;  // the data memory's word offset from the accelerator base
};

}  // namespace ai8x
