// Where a word written to the fast FIFO goes, from the master quadrant's
// REG_CTL (read once per word by the fast FIFO and once per inference by the
// stream plan, so both see the same routing):
// - QUPAC set (--fast-fifo-quad): the whole word into every input FIFO;
// - FIFOGRP set: the whole word into FIFO 0 (processors 0-3);
// - FIFOGRP clear: byte b into byte lane 0 of FIFO b, which feeds the first
//   processor of quadrant b (processors 0, 16, 32, 48). The user guide: "each
//   byte of FIFO data is directed to the first little data channel of each
//   CNNx16_n processor"; the generator clears it for HWC input on processors
//   0, 16, 32 (izer max7800x.py: fifo_group = False when processors 1-3 are
//   unused), e.g. test-fifostream-group-notvga64x48-hwc.
#pragma once

#include <cstdint>

#include "model/registers/register_fields.h"

namespace ai8x {

enum class FastFifoRouting { Fifo0, QuadFanOut, ByteLanes };

inline FastFifoRouting fast_fifo_routing(const RegisterFields& f, uint32_t master_ctl) {
    if (f.REG_CTL.QUPAC.is_set(master_ctl)) return FastFifoRouting::QuadFanOut;
    return f.REG_CTL.FIFOGRP.is_set(master_ctl) ? FastFifoRouting::Fifo0 : FastFifoRouting::ByteLanes;
}

// Input FIFOs a fast FIFO word feeds (bit i = FIFO i) among `fifo_count`.
inline uint32_t fast_fifo_targets(FastFifoRouting routing, uint32_t fifo_count) {
    return routing == FastFifoRouting::Fifo0 ? 1u : (1u << fifo_count) - 1;
}

// The word FIFO `fifo` receives of fast FIFO word `word`.
inline uint32_t fast_fifo_word_for(FastFifoRouting routing, uint32_t word, uint32_t fifo) {
    if (routing != FastFifoRouting::ByteLanes) return word;
    return fifo < 4 ? (word >> (8 * fifo)) & 0xffu : 0;  // a word has four byte lanes
}

}  // namespace ai8x
