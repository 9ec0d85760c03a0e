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

uint32_t FastFifo::targets() const {
    const int master = sequencing_master(state_);
    const uint32_t all = (1u << fifos_.queues().count()) - 1;
    const bool quad = master >= 0 && register_fields(state_.cfg).REG_CTL.QUPAC.is_set(state_.quadrant[master].ctl);
    return quad ? all : 1u;
}

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
    const uint32_t t = targets();
    for (uint32_t i = 0; i < fifos_.queues().count(); ++i)
        if (t >> i & 1) fifos_.push_word(i, word, true);
    ++pushed_;
}

}  // namespace ai8x
