// Which quadrants run, which one is the master and which layers it sequences:
// the one place these rules live. The sequencer (start trigger, completion),
// the layer engine, the streaming/FIFO plan and the timing walk all take their
// answer from here, so they cannot disagree.
//
// Rules (generator's cnn_start(), izer/backend/max7800x.py; README "A quadrant ...
// can be operated tethered to another quadrant, or independently"):
//  * A quadrant is enabled while REG_CTL.CNN_EN is set.
//  * A quadrant is tethered (a slave) when REG_CTL.EXT_SYNC is set and
//    REG_CTL.MASTER_SEL names another quadrant; it waits for that quadrant.
//    Every other enabled quadrant runs on its own: it is a master. The
//    generator writes slaves with EXT_SYNC and MASTER_SEL = first used quadrant,
//    then the master with CNN_EN and MASTER_SEL 0 (EXT_SYNC only with FIFOs).
//  * The master's rising CNN_EN starts an inference. With several masters the
//    lowest-numbered one rules (warning). With none nothing runs.
//  * The master's REG_LCNT_MAX gives the first (START) and last (LCNT) layer.
//    The generator never writes a start layer above the device's
//    accelerator.max_start_layer (0 on MAX78000); a higher one is honoured with
//    a warning, as the field exists and is decoded by the hardware sequencer.
//  * A layer streams when the master's REG_CTL.STREAM_EN is set and the layer's
//    LREG_FMAX (lead quadrant) is not 0 (docs/streaming.md section 2.7).
//  * One-shot (the master's REG_CTL.ONESHOT; generator --one-shot): each start
//    runs one layer and ends with the completion interrupt; the next start
//    runs the layer that would have followed (AcceleratorState::oneshot_resume).
//    The master's CNN_EN clears when such a layer completes, so the firmware's
//    cnn_continue() (`REG_CTL |= 1`) is a rising edge: the MAX78002's generated
//    interrupt handler leaves CNN_EN set (izer toplevel.py, REQUIRE_ONESHOT_CLEAR
//    false), the MAX78000's clears it itself.
//  * Snoop units (MAX78002, model/snoop.h) decide at run time whether a
//    layer's link is taken and whether the inference stops after a layer:
//    SequenceRun follows them; SequencePlan::order assumes every link is taken.
#pragma once

#include <memory>
#include <vector>

#include "model/accel_state.h"
#include "model/engine/layer_engine.h"

namespace ai8x {

struct SequencePlan {
    std::vector<int> enabled_quadrants;   // CNN_EN set, ascending
    int master = -1;                      // -1: no quadrant runs on its own
    int first_layer = 0;                  // REG_LCNT_MAX.START of the master
    int last_layer = -1;                  // REG_LCNT_MAX.LCNT of the master
    bool layer_range_valid = false;       // first <= last < max_layers
    bool fifo_mode = false;               // master REG_CTL.FIFO_EN
    bool streaming = false;               // master REG_CTL.STREAM_EN
    bool oneshot = false;                 // master REG_CTL.ONESHOT: `order` is the one layer this start runs
    std::vector<EngineWarning> warnings;  // why nothing runs, or what is unusual
    // Layers in the order they run: first_layer..last_layer, unless the
    // master's LREG_NXTLYR links (MAX78002) send a layer elsewhere or stop.
    std::vector<int> order;

    // True when an inference computes anything: a master and a valid layer range.
    bool runs() const { return master >= 0 && layer_range_valid; }
    // The layers that run, in order (empty unless runs()).
    std::vector<int> layers() const;
};

// Whether quadrant `q` is enabled and not tethered to another quadrant.
bool runs_on_its_own(const AcceleratorState& state, int q);

SequencePlan plan_sequence(const AcceleratorState& state);

// The quadrant that sequences, also before a start (the fast FIFO's fan-out
// follows its REG_CTL.QUPAC while the firmware feeds the first words): the
// master of plan_sequence() while a quadrant is enabled; before that, the
// lowest quadrant configured to run on its own (REG_CTL.CLK_EN set, as
// generated code writes it with the configuration, and not tethered to another
// one). -1 when there is none.
int sequencing_master(const AcceleratorState& state);

class SnoopUnits;

// One inference's walk through its layers, as the sequencer takes them at run
// time: first(), then before(layer) and after(layer) around each layer, which
// returns the next layer or -1. Follows the plan, except where a snoop unit
// decides on a link or a stop; in one-shot mode it ends after one layer and
// leaves the layer to resume at in the state.
class SequenceRun {
public:
    SequenceRun(AcceleratorState& state, const SequencePlan& plan);
    ~SequenceRun();
    int first() const;
    void before(int layer);
    int after(int layer);

private:
    AcceleratorState& state_;
    const SequencePlan& plan_;
    std::unique_ptr<SnoopUnits> snoop_;
    std::vector<bool> ran_;
    std::vector<EngineWarning> unused_;  // link warnings were given by plan_sequence()
};

// Whether `layer` (whose shared registers come from `lead_quadrant`) streams.
bool layer_streams(const AcceleratorState& state, const SequencePlan& plan, int lead_quadrant, int layer);

}  // namespace ai8x
