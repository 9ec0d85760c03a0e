// The CNN accelerator as one TLM target: it decodes every block of the device
// description (per-quadrant registers and memories, FIFO and AON registers),
// keeps all state in AcceleratorState, and runs the layer sequencer when the
// firmware starts the master quadrant: the layer engine computes the results,
// the accelerator stays busy for the computed number of CNN clock cycles, then
// sets the completion bits and raises the interrupt line.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "model/accel_state.h"
#include "model/engine/layer_engine.h"
#include "model/fifo/input_fifos.h"
#include "model/timing/inference_cycles.h"
#include "tlm/register_bank.h"

namespace ai8x {

class MemoryPort;
class StreamSession;

// One address block the platform must map to Accelerator::socket.
struct AddressWindow {
    std::string name;        // e.g. "q0.regs", "q2.kernel", "fifo"
    uint64_t base, size;
    bool is_register_block;  // register blocks and memories have different wait states
};

class Accelerator : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<Accelerator, 32> socket;

    SC_HAS_PROCESS(Accelerator);
    Accelerator(sc_core::sc_module_name name, const DeviceConfig& cfg);
    ~Accelerator() override;

    std::vector<AddressWindow> windows() const;  // every block the platform must map to `socket`
    AcceleratorState& state() { return state_; }

    std::function<void(bool level)> on_irq;  // CNN interrupt line towards the CPU

    void set_cnn_clock_hz(double hz);        // follows the firmware's CNN clock select/divider
    double cnn_clock_hz() const { return cnn_clock_hz_; }

    // `run --set ADDR=VALUE`: every later firmware write to the register at
    // `address` stores `value` instead. Throws std::invalid_argument if no
    // accelerator register lives at `address`.
    void add_register_override(uint64_t address, uint32_t value);
    // Addresses given to add_register_override() that no firmware write has hit (run warns).
    std::vector<uint64_t> unapplied_register_overrides() const;

    // `run --dump-layers`: keep each layer's output in last_result().outputs.
    void set_capture_layers(bool on) { capture_layers_ = on; }

    uint64_t busy_cycles() const { return busy_cycles_; }  // CNN clock cycles of the last inference
    const EngineResult& last_result() const { return last_result_; }
    const InferenceCycles& last_timing() const { return last_timing_; }  // per-layer cycles of the last inference
    bool busy() const { return busy_; }

    // Words queued in input FIFO `fifo`, oldest first (the accelerator removes them as it consumes them).
    std::vector<uint32_t> fifo_words(unsigned fifo) const { return fifos_.contents(fifo); }
    // Words lost to full or disabled FIFOs since construction (docs/fifo.md §5).
    uint64_t fifo_dropped_words() const { return fifos_.dropped_total(); }

private:
    struct Region {
        std::string name;
        uint64_t base, size;
        RegisterBank* bank;  // exactly one of bank / memory is set
        MemoryPort* memory;
    };

    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    const Region* decode(uint64_t address) const;
    void build_quadrant(uint32_t q);
    void on_ctl_write(uint32_t q, uint32_t old_value);
    void update_irq();
    void sequencer();
    void run_fifo_inference(StreamSession& session);  // FIFO and streaming mode (docs/streaming.md §9.6)
    void on_fifo_write(uint32_t fifo, uint32_t word);
    void update_fifo_status();

    DeviceConfig cfg_;
    AcceleratorState state_;
    std::vector<std::unique_ptr<RegisterBank>> banks_;
    std::vector<std::unique_ptr<MemoryPort>> memories_;
    std::vector<Region> regions_;  // sorted by base

    std::vector<uint32_t> fifo_last_written_;
    InputFifos fifos_;
    sc_core::sc_event fifo_push_event_;         // a word entered a FIFO
    std::vector<bool> fifo_overflow_warned_;    // one overflow warning per FIFO and inference

    sc_core::sc_event start_event_;
    sc_core::sc_time transport_delay_;  // annotated delay of the access being served (its time past sc_time_stamp)
    double cnn_clock_hz_;
    bool busy_ = false;
    bool irq_level_ = false;
    uint32_t running_quadrants_ = 0;  // bit q: quadrant q was enabled when the run started
    uint64_t busy_cycles_ = 0;
    EngineResult last_result_;
    bool capture_layers_ = false;
    InferenceCycles last_timing_;
};

}  // namespace ai8x
