// Turns the bus traffic of one initiator (normally the CPU) into a trace that
// the TracePlayer can replay without the firmware (docs/trace-format.md).
//
// Writes become writes, reads become read checks of the value seen. A run of
// consecutive reads of one address is how firmware waits for hardware; it is
// written as a single poll for the last value read, so that the replay does not
// depend on how often the CPU happened to poll. Interrupt rising edges become
// wait_irq. Timeouts are generous multiples of the time the original run took.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <systemc>

#include "tlm/bus_observer.h"

namespace ai8x {

class TraceRecorder : public BusObserver {
public:
    // Records transactions whose BusEvent::initiator equals `initiator`.
    TraceRecorder(std::ostream& out, std::string initiator);
    ~TraceRecorder() override;

    // Restricts recording to [base, base + size); may be called several times.
    // Without any window, every address is recorded. A named window (e.g.
    // "cnn.q0.kernel") puts a "# name" comment before the first line of every
    // stretch of accesses to it, so a trace reads like the module tree.
    void add_window(uint64_t base, uint64_t size, std::string name = "");

    // Records the transactions of one more initiator (the RISC-V core of a
    // dual-core run). With several, a "# initiator NAME" comment comes before
    // the first line of every stretch of one initiator's accesses.
    void add_initiator(std::string initiator);

    // A status register firmware reads to wait for room (the fast FIFO's SR):
    // every read of it becomes a poll for the bits in `mask` as last seen, so a
    // replay that runs faster than the recorded feeder waits as the firmware
    // did instead of overrunning the FIFO.
    void add_flow_control(uint64_t address, uint32_t mask);

    // Timeout written for a poll or wait_irq that took `elapsed` in the
    // recorded run: factor * elapsed + floor (defaults 4 and 1 ms).
    void set_timeout_policy(unsigned factor, const sc_core::sc_time& floor);

    void on_transaction(const BusEvent& ev) override;

    // Connect to the interrupt line the replay will wait for. `now` is the
    // simulated time of the edge.
    void on_irq(bool level, const sc_core::sc_time& now);

    // Writes out a pending read run. Call when the simulation ends (the
    // destructor does it too).
    void flush();

private:
    struct ReadRun {
        uint64_t address = 0;
        unsigned size = 4;
        uint32_t last_value = 0;
        unsigned count = 0;
        sc_core::sc_time first_time;  // when the run started
        sc_core::sc_time last_time;   // when the final value was seen
    };

    struct Window {
        uint64_t base, size;
        std::string name;
    };
    const Window* window_of(uint64_t address) const;  // nullptr: outside every window
    void name_window(const Window* w);                // "# name" when the window changes
    uint64_t timeout_ps(const sc_core::sc_time& elapsed) const;
    void emit(const std::string& line);

    std::ostream& out_;
    std::string initiator_;
    std::vector<std::string> more_initiators_;
    std::vector<std::pair<uint64_t, uint32_t>> flow_control_;  // (address, mask)
    std::string last_initiator_;  // initiator of the last recorded line (several initiators only)
    std::vector<Window> windows_;
    const Window* named_ = nullptr;  // window the last "# name" comment announced
    unsigned timeout_factor_ = 4;
    sc_core::sc_time timeout_floor_{1, sc_core::SC_MS};
    std::optional<ReadRun> run_;
    sc_core::sc_time last_event_time_;  // start of the interval a wait_irq covers
    bool irq_level_ = false;
};

}  // namespace ai8x
