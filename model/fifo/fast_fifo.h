// The RISC-V core's fast FIFO (cnn.fast_fifo; generator option --fast-fifo):
// an APB peripheral (configs peripherals FAST_FIFO), on the SoC's interconnect
// but part of the CNN, through which the RISC-V core feeds input words. Each
// word enters the accelerator's input FIFO 0, every one of the four input
// FIFOs when the master quadrant's REG_CTL.QUPAC is set (--fast-fifo-quad,
// quad fan-out), or one byte into each FIFO when its FIFOGRP is clear
// (model/fifo/fast_fifo_routing.h). The master is the one the sequencing rules name
// (model/sequencing.h). The accelerator drains the FIFOs as it does for the
// standard FIFOs, so a slow feeder stalls the CNN exactly as FIFO_WR<i>
// pushes do (docs/fifo.md, docs/riscv.md).
//
// SR reads the live state of the FIFOs the next word goes to; the firmware
// waits while SR.FULL is set. A word pushed while a target FIFO is full is
// dropped and counted (dropped_words(), run JSON dropped_words), with one
// warning per inference.
#pragma once

#include <cstdint>

#include "model/accel_state.h"
#include "model/fifo/fast_fifo_routing.h"
#include "model/fifo/fifo_block.h"
#include "registers/soc.h"

namespace ai8x {

class FastFifo : public Peripheral {
public:
    FastFifo(sc_core::sc_module_name name, AcceleratorState& state, InputFifoBlock& fifos);

    uint64_t dropped_words() const { return dropped_; }
    uint64_t pushed_words() const { return pushed_; }
    // Input FIFOs the next word goes to: bit i = FIFO i.
    uint32_t targets() const;
    void begin_inference() { warned_ = false; }

    // Where a trace recorder finds the flow control: the SR word and its FULL bit.
    uint64_t status_address() const { return base() + SR.offset(); }
    uint32_t full_mask() const { return SR.FULL.mask(); }

protected:
    // Its words feed the stream controller, which drains them at its own time:
    // a core running ahead must push and poll them at its own instant.
    bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) override;

private:
    FastFifoRouting routing() const;
    uint32_t read_status();
    void write_data(uint32_t word);

    regs::fast_fifo::SR SR{*this};
    regs::fast_fifo::DATA DATA{*this};
    AcceleratorState& state_;
    InputFifoBlock& fifos_;
    uint64_t dropped_ = 0, pushed_ = 0;
    bool warned_ = false;
};

}  // namespace ai8x
