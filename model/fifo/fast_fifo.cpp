#include "model/fifo/fast_fifo.h"

#include <spdlog/spdlog.h>

#include "model/registers/register_fields.h"
#include "model/sequencing.h"
#include "tlm/sync_hint.h"

namespace ai8x {

FastFifo::FastFifo(sc_core::sc_module_name name, AcceleratorState& state, InputFifoBlock& fifos)
    : Peripheral(name, state.cfg, regs::fast_fifo::kName), state_(state), fifos_(fifos) {
    SR.on_read(&FastFifo::read_status);
    DATA.on_write(&FastFifo::write_data);
}

bool FastFifo::get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi&) {
    answer_sync_hint(trans, {{0, size() - 1}});
    return false;
}

FastFifoRouting FastFifo::routing() const {
    const int master = sequencing_master(state_);
    if (master < 0) return FastFifoRouting::Fifo0;  // no master yet: nothing reads the FIFOs
    return fast_fifo_routing(register_fields(state_.cfg), state_.quadrant[master].ctl);
}

uint32_t FastFifo::targets() const { return fast_fifo_targets(routing(), fifos_.queues().count()); }

uint32_t FastFifo::read_status() {
    bool full = false, empty = true;
    const uint32_t t = targets();
    for (uint32_t i = 0; i < fifos_.queues().count(); ++i) {
        if (!(t >> i & 1)) continue;
        full |= fifos_.queues().occupancy(i) >= fifos_.queues().depth();
        empty &= fifos_.queues().occupancy(i) == 0;
    }
    return SR.FULL.with(SR.EMPTY.with(0, empty), full);
}

void FastFifo::write_data(uint32_t word) {
    if (SR.FULL.is_set(read_status())) {
        // The word goes nowhere: count it once, however many FIFOs it was meant for.
        ++dropped_;
        if (!warned_)
            spdlog::warn(
                "{}: word 0x{:08x} dropped, an input FIFO it feeds is full; the firmware must wait for SR.FULL "
                "to clear",
                name(), word);
        warned_ = true;
        return;
    }
    const FastFifoRouting r = routing();
    const uint32_t t = fast_fifo_targets(r, fifos_.queues().count());
    for (uint32_t i = 0; i < fifos_.queues().count(); ++i)
        if (t >> i & 1) fifos_.push_word(i, fast_fifo_word_for(r, word, i), true);
    ++pushed_;
}

}  // namespace ai8x
