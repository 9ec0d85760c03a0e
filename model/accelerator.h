// The CNN accelerator (cnn): the root of the model's module tree and one TLM
// target for every block of the device description.
//
//   cnn                      Accelerator: address decoding, sequencer
//   ├── q0 .. q3             Quadrant: control and per-layer registers and their
//   │   │                    side effects, bias memory
//   │   ├── power            PowerDomain: the quadrant's power, isolation, reset, REG_SRAM
//   │   └── p0 .. p63        Processor: kernel memory, TRAM, data SRAM (first of 4)
//   ├── fifo                 InputFifoBlock: input FIFOs and their registers
//   ├── fast_fifo            FastFifo: the fast FIFO's registers
//   ├── stream               StreamController: FIFO-fed and streaming inferences
//   ├── aon                  AlwaysOnControl: AON_CTL (kernel memory power-down)
//   └── power                PowerControl: the SoC's GCFR masks to the domains, the clock gate
//
// When the firmware starts the master quadrant the sequencer runs: the layer
// engine computes the results from the registers and memories (AcceleratorState
// is the numbered view of the tree's storage), the timing model gives the CNN
// clock cycles, and after that many cycles the completion bits are set and the
// interrupt line rises.
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
#include "model/activity_observer.h"
#include "model/registers/register_fields.h"
#include "model/sequencing.h"
#include "model/stream/stream_session.h"
#include "model/engine/layer_engine.h"
#include "model/engine/worker_pool.h"
#include "model/fifo/fast_fifo.h"
#include "model/fifo/fifo_block.h"
#include "model/hierarchy/quadrant.h"
#include "model/power/always_on.h"
#include "model/power/power_control.h"
#include "model/stream/stream_controller.h"
#include "model/timing/inference_cycles.h"
#include "tlm/register_bank.h"
#include "tlm/sync_hint.h"
#include "tlm/wire.h"

namespace ai8x {

class MemoryPort;

// One address block the platform must map to Accelerator::socket.
struct AddressWindow {
    std::string name;  // hierarchical, e.g. "cnn.q0.regs", "cnn.q2.kernel", "cnn.fifo.regs"
    uint64_t base, size;
    bool is_register_block;  // register blocks and memories have different wait states
};

class Accelerator : public sc_core::sc_module, private DirectTransport {
public:
    tlm_utils::simple_target_socket<Accelerator, 32> socket;
    // The CNN clock in Hz as the SoC selects it (GCR PCLKDIV); unconnected, the
    // clock stays at PCLK unless set_cnn_clock_hz() changes it.
    WireIn<double> cnn_clock;
    // The CNN interrupt (any quadrant's REG_CTL.CNN_IRQ), towards the cores'
    // interrupt controllers and whatever else the board binds to its wire.
    WireOut<bool> irq;

    SC_HAS_PROCESS(Accelerator);
    Accelerator(sc_core::sc_module_name name, const DeviceConfig& cfg);
    ~Accelerator() override;

    std::vector<AddressWindow> windows() const;  // every block the platform must map to `socket`
    // Register bank of a window (nullptr for memories and unknown names).
    const RegisterBank* register_bank(const std::string& window_name) const;
    AcceleratorState& state() { return state_; }
    const AcceleratorState& state() const { return state_; }
    Quadrant& quadrant(uint32_t q) { return *quadrants_.at(q); }
    uint32_t quadrant_count() const { return static_cast<uint32_t>(quadrants_.size()); }
    InputFifoBlock& fifo_block() { return *fifo_; }
    FastFifo& fast_fifo() { return *fast_fifo_; }
    // Reset, power and clock state of the quadrants (docs/power-and-reset.md).
    PowerControl& power() { return *power_; }

    void set_cnn_clock_hz(double hz);  // what the cnn_clock input does
    double cnn_clock_hz() const { return cnn_clock_hz_; }
    // CNN clock the last inference ran at (the firmware may change the clock
    // afterwards; MAX78002 main() goes back to PLL / 4); 0 before the first one.
    double inference_clock_hz() const { return inference_clock_hz_; }
    // Whether the last inference ran with the MAX78002 pipeline (model/timing/pipeline.h).
    bool inference_pipelined() const { return inference_pipelined_; }

    // `run --set ADDR=VALUE`: every later firmware write to the register at
    // `address` stores `value` instead. Throws std::invalid_argument if no
    // accelerator register lives at `address`.
    void add_register_override(uint64_t address, uint32_t value);
    // Addresses given to add_register_override() that no firmware write has hit (run warns).
    std::vector<uint64_t> unapplied_register_overrides() const;

    // `run --dump-layers`: keep each layer's output in last_result().outputs.
    void set_capture_layers(bool on) { capture_layers_ = on; }

    // `run --threads N`: the layer engine shares its large computations with
    // N - 1 worker threads (1: none, the computation stays on the simulation
    // thread); with `only_with_spare_core` (run without --threads) only while
    // the host has a core to spare. Results are the same for every N. Set
    // before the simulation starts.
    void set_compute_threads(unsigned threads, bool only_with_spare_core = false);

    uint64_t busy_cycles() const { return busy_cycles_; }  // CNN clock cycles of the last inference
    const EngineResult& last_result() const { return last_result_; }
    const InferenceCycles& last_timing() const { return last_timing_; }  // per-layer cycles of the last inference
    bool busy() const { return busy_; }

    // `run --vcd/--timeline`: report layers, stalls and FIFO traffic to
    // `observer` (null: nothing is reported). Set before the simulation starts.
    void set_observer(ActivityObserver* observer);
    // Time of the bus access being served (SystemC time plus its annotated
    // delay), or SystemC time outside an access: when the firmware's write happened.
    sc_core::sc_time now() const { return sc_core::sc_time_stamp() + transport_delay_; }

    // Words queued in input FIFO `fifo`, oldest first (the accelerator removes them as it consumes them).
    std::vector<uint32_t> fifo_words(unsigned fifo) const { return fifo_->queues().contents(fifo); }
    // Words lost to full or disabled FIFOs since construction (docs/fifo.md §5),
    // the fast FIFO's included (model/fifo/fast_fifo.h).
    // Enabled FIFOs the last FIFO-fed inference found empty next to a full one (StreamController::starved_fifos).
    uint32_t fifo_starved_fifos() const { return stream_->starved_fifos(); }
    uint64_t fifo_dropped_words() const { return fifo_->queues().dropped_total() + fast_fifo_->dropped_words(); }

private:
    struct Region {
        std::string name;
        uint64_t base, size;
        RegisterBank* bank;  // exactly one of bank / memory is set
        MemoryPort* memory;
        AccessScope scope;  // the quadrant and block it reaches, for the power checks
    };

    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    // b_transport for the FIFO block's window without decoding the address
    // (declared to the bus in get_direct_mem_ptr's SyncHint answer).
    void direct_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) override;
    // The access to region `r` (null: nothing decodes the address).
    void serve(const Region* r, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    // A debugger's access (GDB stub): the same registers and memories as the
    // firmware's, in no simulated time; 0 bytes when the address does not
    // decode or its quadrant is unpowered or isolated.
    unsigned transport_dbg(tlm::tlm_generic_payload& trans);
    // No direct memory access; a query's SyncHint (tlm/sync_hint.h) learns
    // which accesses must happen at the initiator's instant (the input FIFOs).
    bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
    const Region* decode(uint64_t address) const;
    void check_geometry() const;
    void bind_state();
    // A register block on the bus; `scope`: the quadrant it belongs to (none: the FIFO and AON blocks).
    void add_region(RegisterBank& bank, uint64_t size, AccessScope scope = {});
    void on_ctl_write(uint32_t q, uint32_t old_value);
    void update_irq();
    void sequencer();
    void run_layer_engine(const AccelTiming& timing, SequencePlan& plan);
    void record_quadrant_activity(const std::vector<int>& running_quadrants);
    uint32_t quadrants_in_layer(int layer, const std::vector<int>& running_quadrants) const;
    void report_layers(const std::vector<int>& running_quadrants) const;
    void connect_power_control();
    void request_start();

    DeviceConfig cfg_;
    AcceleratorState state_;
    std::vector<std::unique_ptr<Quadrant>> quadrants_;
    std::unique_ptr<InputFifoBlock> fifo_;
    std::unique_ptr<FastFifo> fast_fifo_;
    std::unique_ptr<StreamController> stream_;
    std::unique_ptr<AlwaysOnControl> aon_;
    std::unique_ptr<PowerControl> power_;
    bool start_waits_for_clock_ = false;  // a start came while a clock it needs was off
    std::vector<Region> regions_;         // sorted by base
    // Index into regions_ of the last region decode found (accesses come in
    // runs to one block): tried first, and taken only when the search would find it too.
    mutable std::size_t last_region_ = 0;
    const Region* fifo_region_ = nullptr;  // the FIFO block's, once a SyncHint query found it

    sc_core::sc_event start_event_;
    sc_core::sc_time transport_delay_;  // annotated delay of the access being served (its time past sc_time_stamp)
    double cnn_clock_hz_;
    double inference_clock_hz_ = 0;
    bool inference_pipelined_ = false;
    bool busy_ = false;
    std::vector<int> running_quadrants_;  // quadrants enabled when the run started
    // What the sequencer keeps while it waits inside an inference. A member, not
    // locals of its thread: SystemC never unwinds a thread suspended when the
    // run stops (time limit, a FIFO deadlock), so only the module can free it.
    struct Inference {
        std::vector<uint64_t> resets_at_start;  // a quadrant reset during the run gets no completion
        SequencePlan plan;
        std::unique_ptr<StreamSession> session;
    };
    std::unique_ptr<Inference> inference_;
    const RegisterFields& fields_;  // resolved once: the FIFO path reads them per word
    uint64_t busy_cycles_ = 0;
    EngineResult last_result_;
    bool capture_layers_ = false;
    std::unique_ptr<WorkerPool> compute_pool_;   // null: single-threaded
    std::unique_ptr<HostProfile> host_profile_;  // AI8XSIM_HOST_PROFILE; null: off
    InferenceCycles last_timing_;
    ActivityObserver* observer_ = nullptr;
};

}  // namespace ai8x
