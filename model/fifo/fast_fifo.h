// The RISC-V core's fast FIFO (generator option --fast-fifo): an APB register
// block outside the accelerator (soc.fast_fifo) through which the RISC-V core
// feeds input words. Each word enters the accelerator's input FIFO 0, or,
// when the master quadrant's REG_CTL.QUPAC is set (--fast-fifo-quad), every
// one of the four input FIFOs (quad fan-out). The accelerator drains them as
// it does for the standard FIFOs, so a slow feeder stalls the CNN exactly as
// FIFO_WR<i> pushes do (docs/fifo.md, docs/riscv.md).
//
// Registers (offsets from soc.fast_fifo.base):
//   0x00 CR   control (stored; the generator writes the threshold, 10 << 4)
//   0x04 SR   status: bit 0 empty, bit 1 full (firmware waits while bit 1 is set)
//   0x08 IE   interrupt enables (stored; generated code writes 0)
//   0x10 DATA push one word
// A word pushed while a target FIFO is full is dropped and counted
// (dropped_words(), run JSON dropped_words), with one warning per inference.
#pragma once

#include <cstdint>

#include "model/accel_state.h"
#include "model/fifo/fifo_block.h"

namespace ai8x {

class FastFifo {
public:
    static constexpr uint32_t kControl = 0x00, kStatus = 0x04, kInterruptEnable = 0x08, kData = 0x10;
    static constexpr uint32_t kStatusEmpty = 1u << 0, kStatusFull = 1u << 1;

    FastFifo(AcceleratorState& state, InputFifoBlock& fifos);

    // One APB access at `offset`; false for an offset the block does not decode.
    bool read(uint32_t offset, uint32_t& value) const;
    bool write(uint32_t offset, uint32_t value);

    uint64_t dropped_words() const { return dropped_; }
    uint64_t pushed_words() const { return pushed_; }
    // Input FIFOs the next word goes to: bit i = FIFO i.
    uint32_t targets() const;
    void begin_inference() { warned_ = false; }

private:
    uint32_t status() const;

    AcceleratorState& state_;
    InputFifoBlock& fifos_;
    uint32_t control_ = 0, interrupt_enable_ = 0;
    uint64_t dropped_ = 0, pushed_ = 0;
    bool warned_ = false;
};

}  // namespace ai8x
