#include "model/registers/fifo_registers.h"

#include <string>

namespace ai8x {

void add_fifo_registers(RegisterBank& bank, AcceleratorState& state, std::vector<uint32_t>& last_written) {
    bank.add({"FIFO_CTL", FIFO_CTL_OFFSET, 0, RegAccess::RW, "input FIFO control",
              {{"RDY_SEL", 0, 2, "ready select"},
               {"FIFO_CPL", 2, 5, "almost-full level (firmware writes 2)"},
               {"FIFO_CPH", 7, 4, "almost-empty level (firmware writes 2)"},
               {"FIFO_FULL_STALL", 11, 1, "stall the accelerator while a FIFO is empty"},
               {"FIFO_EN", 12, 4, "enable FIFO i (bit 12 + i)"}}},
             &state.fifo_ctl);
    bank.add({"FIFO_STAT", FIFO_STAT_OFFSET, 0, RegAccess::RO, "input FIFO status",
              {{"FULL", 0, 4, "FIFO i is full (firmware waits while bit i is set)"}}},
             &state.fifo_stat);
    last_written.assign(state.cfg.fifo_count, 0);
    for (uint32_t i = 0; i < state.cfg.fifo_count; ++i)
        bank.add({"FIFO_WR" + std::to_string(i), FIFO_DATA_OFFSET + 4ull * i, 0, RegAccess::WO,
                  "push one 32-bit input word into FIFO " + std::to_string(i), {{"DATA", 0, 32, "input word"}}},
                 &last_written[i]);
}

void add_aon_registers(RegisterBank& bank, AcceleratorState& state) {
    bank.add({"AON_CTL", AON_CTL_OFFSET, 0, RegAccess::RW, "always-on control",
              {{"READY_SEL", 0, 2, "ready select"}, {"PWR_DOWN", 12, 4, "power down quadrant i (bit 12 + i)"}}},
             &state.aon_ctl);
}

}  // namespace ai8x
