// The input FIFO block (cnn.fifo): the four bounded input FIFOs, their
// control/status/data registers, and the event the streaming controller waits
// on when it starves. The firmware pushes words through FIFO_WR<i>; a word
// pushed into a full or disabled FIFO is counted and reported, never queued.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <systemc>

#include "model/accel_state.h"
#include "model/activity_observer.h"
#include "model/fifo/input_fifos.h"
#include "tlm/register_bank.h"
#include "tlm/register_description.h"

namespace ai8x {

class InputFifoBlock : public sc_core::sc_module {
public:
    InputFifoBlock(sc_core::sc_module_name name, AcceleratorState& state);
    ~InputFifoBlock() override;

    RegisterBank& register_bank() { return *bank_; }
    InputFifos& queues() { return fifos_; }
    const InputFifos& queues() const { return fifos_; }
    const sc_core::sc_event& push_event() const { return push_event_; }
    // The streaming controller's wait for the next push (it starved). While it
    // waits, a push must happen at its writer's own instant (the CPU then
    // synchronises first, see UnicornCpu::bus_transport); otherwise no process
    // observes the FIFOs before the CPU's next synchronisation, and a push may
    // be made early in SystemC time, ahead of the writer's local time.
    void wait_for_push();
    bool consumer_waiting() const { return consumer_waiting_; }

    // One word into FIFO `fifo` from another feeder than FIFO_WR<i> (the fast
    // FIFO): queued (and the accelerator woken), or dropped and counted.
    InputFifos::Push push_word(uint32_t fifo, uint32_t word, bool enabled);

    // An inference starts: overflow is reported once more per FIFO.
    void begin_inference();
    // FIFO_STAT follows the live full flags (call after popping words).
    void update_status();
    // Empties FIFO `fifo` (reset, enable bit cleared).
    void clear(uint32_t fifo);

    // Queued and cleared words are reported to `observer` (null: not reported)
    // at SystemC time: when the accelerator sees them (a CPU running ahead in
    // its quantum wrote them at a later local time, but the stream controller
    // takes a word at the first CNN clock edge after SystemC time reaches it).
    // While one is set, every FIFO write must come at its writer's own
    // instant (the CPU synchronises first), as the report's times are SystemC's.
    void set_observer(ActivityObserver* observer) { observer_ = observer; }
    bool observed() const { return observer_ != nullptr; }

    const char* kind() const override { return "ai8x_fifo_block"; }

private:
    void on_data_write(uint32_t fifo, uint32_t word);
    void on_ctl_write(uint32_t old_value);
    bool enabled(uint32_t fifo) const;
    void notify_push();

    AcceleratorState& state_;
    InputFifos fifos_;
    std::unique_ptr<RegisterBank> bank_;
    std::vector<uint32_t> last_written_;  // storage of the write-only data registers
    RegField enable_;                     // FIFO_CTL.FIFO_EN, resolved once (read on every push)
    RegField cpl_;                        // FIFO_CTL.FIFO_CPL
    RegField full_;                       // FIFO_STAT.FULL
    std::vector<bool> overflow_warned_;   // one overflow warning per FIFO and inference
    sc_core::sc_event push_event_;        // a word entered a FIFO
    ActivityObserver* observer_ = nullptr;
    bool consumer_waiting_ = false;
};

}  // namespace ai8x
