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
#include "tlm/repeated_warnings.h"

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
    // FIFO, which writes at SystemC time): queued (and the accelerator woken),
    // or dropped and counted.
    InputFifos::Push push_word(uint32_t fifo, uint32_t word, bool enabled);

    // The writer's own instant of the access now being served (IssueTime of its
    // payload): a word written to FIFO_WR<i> arrives then, not at SystemC time.
    void set_writer_instant(sc_core::sc_time at) { writer_instant_ = at; }
    // True when an access at `offset` of this block (`write`: FIFO_WR<i>, else
    // FIFO_STAT) made at any later instant of its writer has the outcome it has
    // now, whatever the accelerator does meanwhile: no FIFO is full (the
    // accelerator only takes words out, so none becomes full, a push is queued
    // and FIFO_STAT reads the same), nobody records the FIFO activity at
    // SystemC time, and no second writer can fill a FIFO first. Such an access
    // needs no synchronisation: a pushed word carries its writer's instant and
    // the stream controller takes it only once its own time has reached it.
    bool settled_access(uint64_t offset, bool write) const;
    // True when an access at `offset` (`write`: FIFO_WR<i>, else FIFO_STAT)
    // neither looks at SystemC time nor wakes a process: a status read reads
    // the flags, a push stamps its word with its writer's instant and wakes
    // the stream controller only when it waits for the word (or when a
    // process is runnable at the current time, which then keeps its writer
    // from owing time). Not while the activity is recorded at SystemC time.
    bool time_neutral(uint64_t offset, bool write) const;
    // Two cores may write the FIFOs (the RISC-V core's fast FIFO besides the
    // Arm's FIFO_WR<i>): every access then synchronises (settled_access false).
    void set_single_writer(bool single) { single_writer_ = single; }

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
    RepeatedWarnings disabled_writes_;    // words written to a disabled FIFO
    sc_core::sc_event push_event_;        // a word entered a FIFO
    ActivityObserver* observer_ = nullptr;
    bool consumer_waiting_ = false;
    sc_core::sc_time writer_instant_;  // of the FIFO_WR<i> write being served
    bool single_writer_ = true;
    uint64_t status_offset_ = 0;              // FIFO_STAT
    uint64_t data_begin_ = 0, data_end_ = 0;  // FIFO_WR<0> .. past FIFO_WR<count - 1>
};

}  // namespace ai8x
