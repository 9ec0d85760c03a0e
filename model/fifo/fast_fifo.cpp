#include "model/fifo/fast_fifo.h"

#include <spdlog/spdlog.h>

#include "model/registers/register_fields.h"

namespace ai8x {

FastFifo::FastFifo(AcceleratorState& state, InputFifoBlock& fifos) : state_(state), fifos_(fifos) {}

uint32_t FastFifo::targets() const {
    // The fan-out follows the master quadrant's QUPAC bit; quadrant 0 is the
    // master of every generated network, and the only one before a start.
    const RegisterFields& f = register_fields(state_.cfg);
    const uint32_t all = (1u << fifos_.queues().count()) - 1;
    return f.ctl.qupac.is_set(state_.quadrant[0].ctl) ? all : 1u;
}

uint32_t FastFifo::status() const {
    uint32_t full = 0, empty = kStatusEmpty;
    const uint32_t t = targets();
    for (uint32_t i = 0; i < fifos_.queues().count(); ++i) {
        if (!(t >> i & 1)) continue;
        if (fifos_.queues().occupancy(i) >= fifos_.queues().depth()) full = kStatusFull;
        if (fifos_.queues().occupancy(i) > 0) empty = 0;
    }
    return full | empty;
}

bool FastFifo::read(uint32_t offset, uint32_t& value) const {
    switch (offset) {
        case kControl: value = control_; return true;
        case kStatus: value = status(); return true;
        case kInterruptEnable: value = interrupt_enable_; return true;
        case kData: value = 0; return true;  // write-only
    }
    return false;
}

bool FastFifo::write(uint32_t offset, uint32_t value) {
    switch (offset) {
        case kControl: control_ = value; return true;
        case kInterruptEnable: interrupt_enable_ = value; return true;
        case kStatus: return true;  // read-only
        case kData: break;
        default: return false;
    }
    if (status() & kStatusFull) {
        // The word goes nowhere: count it once, however many FIFOs it was meant for.
        ++dropped_;
        if (!warned_)
            spdlog::warn(
                "fast FIFO: word 0x{:08x} dropped, an input FIFO it feeds is full; "
                "the firmware must wait for SR bit 1 to clear",
                value);
        warned_ = true;
        return true;
    }
    const uint32_t t = targets();
    for (uint32_t i = 0; i < fifos_.queues().count(); ++i)
        if (t >> i & 1) fifos_.push_word(i, value, true);
    ++pushed_;
    return true;
}

}  // namespace ai8x
